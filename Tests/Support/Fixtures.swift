import Capture
import Foundation

/// Two synthetic cameras and two tones, connected to a movie file: the smallest full session.
public enum Fixtures {
    /// A description of two synthetic cameras and microphones, each also on a track of its own beside the
    /// picture and the mix: every kind of track a file can have.
    public static let everyTrackOfItsOwn = """
        cameras:
          - name: front
            synthetic: smpte
          - name: side
            synthetic: ball
        microphones:
          - name: voice
            synthetic: 440
          - name: room
            synthetic: 880
        output:
          audio: mixed-and-separate
          isolated-cameras: true
        """

    public static let front = CaptureDevice.testPatternCamera(id: "front", pattern: "smpte", label: "front", moving: false)
    public static let side = CaptureDevice.testPatternCamera(id: "side", pattern: "ball", label: "side")
    public static let voice = CaptureDevice.toneMicrophone(id: "voice", frequency: 440)
    public static let room = CaptureDevice.toneMicrophone(id: "room", frequency: 880)

    public static func configuration(path: String, cameras: [CaptureDevice] = [front, side], microphones: [CaptureDevice] = [voice, room],
                              preset: SessionPreset = .hd720) -> SessionConfiguration {
        SessionConfiguration(recording: cameras + microphones, to: MovieFileOutput(path: path), preset: preset)
    }

    /// The formats of the kernel's vivid virtual webcam.
    public static let vividFormats: [VideoFormat] = [
        VideoFormat(pixelFormat: "YUY2", width: 320, height: 180, frameRates: [60, 50, 30, 25, 15]),
        VideoFormat(pixelFormat: "YUY2", width: 640, height: 360, frameRates: [40, 30, 25, 15]),
        VideoFormat(pixelFormat: "YUY2", width: 640, height: 480, frameRates: [25, 15]),
        VideoFormat(pixelFormat: "YUY2", width: 1280, height: 720, frameRates: [12.5]),
        VideoFormat(pixelFormat: "YUY2", width: 1920, height: 1080, frameRates: [5]),
        VideoFormat(pixelFormat: "YUY2", width: 3840, height: 2160, frameRates: [2]),
    ]
}

/// Waits for a session event matching `predicate`.
public func waitForEvent(_ session: CaptureSession, timeout: Duration = .seconds(20), _ predicate: @escaping @Sendable (SessionEvent) -> Bool) async throws -> SessionEvent? {
    try await session.events.first(timeout: timeout, where: predicate)
}

/// Records `configuration` for `seconds` (exact to the frame) and returns the summary once stopped.
public func record(_ configuration: SessionConfiguration, seconds: Double, during: ((CaptureSession) async throws -> Void)? = nil) async throws -> RecordingSummary {
    let session = try CaptureSession(configuration: configuration)
    session.recordingLimit = .milliseconds(Int64(seconds * 1000))
    try await session.startRunning()
    try await during?(session)
    let stopped = try await waitForEvent(session) { if case .stopped = $0 { return true }; return false }
    guard case .stopped(let summary)? = stopped else { throw ProbeError("the session did not stop") }
    return summary
}

/// Records `configuration`, whose cameras are clips replayed fast, until the clips end; returns the summary.
public func recordUntilTheClipsEnd(_ configuration: SessionConfiguration) async throws -> RecordingSummary {
    let session = try CaptureSession(configuration: configuration)
    try await session.startRunning()
    let stopped = try await waitForEvent(session) { if case .stopped = $0 { return true }; return false }
    guard case .stopped(let summary)? = stopped else { throw ProbeError("the session did not stop when the clips ended") }
    return summary
}

/// Writes a raw YUV4MPEG2 clip of `frames` I420 pictures drawn by videotestsrc (`pattern` and its options).
public func makeY4MClip(at path: String, frames: Int, width: Int, height: Int, pattern: [String] = []) throws {
    let made = try Command.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=\(frames)"] + pattern + [
        "!", "video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1", "!", "y4menc", "!", "filesink", "location=\(path)",
    ])
    guard made.status == 0 else { throw ProbeError("could not write \(path): \(made.error)") }
}
