import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The network cameras the tests record from, served for real on 127.0.0.1 and ready once their process
/// holds its port (as `MediaServers` waits for a server): an IP camera's RTSP server (GstRtspServer,
/// `Tests/Programs/rtsp-camera.py`), a webcam server sending MJPEG over HTTP, well or in one of the ways
/// a hostile one does (`Tests/Programs/mjpeg-camera.py`), and an SRT encoder sending MPEG-TS (gst-launch).
///
/// Each can be killed (a camera unplugged from the network, a server that crashed) and started again on
/// the same port.
public final class NetworkCameraServer: @unchecked Sendable {
    public enum Kind: Sendable {
        /// rtsp://127.0.0.1:PORT/cam, a test pattern in H.264; with `credentials` ("user:password"), only
        /// that user may watch.
        case rtsp(pattern: String, credentials: String?)
        /// http://127.0.0.1:PORT/cam, multipart JPEG pictures of white at this size, to every viewer; or, with
        /// `fault`, what a hostile server sends instead (see the script: garbage, stall, truncated, html, silent).
        case mjpeg(width: Int = 640, height: Int = 360, fault: String? = nil)
        /// srt://127.0.0.1:PORT, MPEG-TS with H.264 of white and an 880 Hz tone; it listens for callers.
        case srt
    }

    /// What the cameras run: python3 with its GObject bindings and the RTSP server's typelib, and
    /// gst-launch-1.0 (the SRT encoder), for the package test.
    public static var programs: [String] {
        let typelib = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).filter { $0.hasSuffix("-linux-gnu") }
            .map { "/usr/lib/\($0)/girepository-1.0/GstRtspServer-1.0.typelib" }
            .first { FileManager.default.fileExists(atPath: $0) } ?? "/usr/lib/girepository-1.0/GstRtspServer-1.0.typelib"
        return ["/usr/bin/python3", "/usr/lib/python3/dist-packages/gi/__init__.py", typelib, "gst-launch-1.0"]
    }

    public let kind: Kind
    public let port: Int
    private let command = Locked<RunningCommand?>(nil)

    public init(_ kind: Kind) throws {
        self.kind = kind
        port = freeLocalPort(udp: { if case .srt = kind { return true } else { return false } }())
        try start()
    }

    deinit { kill() }

    /// Where pipcam finds the camera (without credentials: the test gives them as a user would).
    public var url: String {
        switch kind {
        case .rtsp: "rtsp://127.0.0.1:\(port)/cam"
        case .mjpeg: "http://127.0.0.1:\(port)/cam"
        case .srt: "srt://127.0.0.1:\(port)"
        }
    }

    /// Kills the server at once, as a crash or a pulled cable would end it: no goodbye to the viewer.
    public func kill() {
        let running = command.withValue { command in
            defer { command = nil }
            return command
        }
        _ = running?.end(with: SIGKILL)
    }

    /// Starts the server again on its port, once it no longer runs.
    public func start() throws {
        let arguments: [String]
        var udp = false
        switch kind {
        case .rtsp(let pattern, let credentials):
            arguments = ["/usr/bin/python3", "\(Paths.repository)/Tests/Programs/rtsp-camera.py", String(port), pattern] + (credentials.map { [$0] } ?? [])
        case .mjpeg(let width, let height, let fault):
            let picture = try Paths.scratch("mjpeg-picture") + "/white.jpg"
            let made = try Command.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=white:size=\(width)x\(height)", "-frames:v", "1", "-y", picture])
            guard made.status == 0 else { throw ProbeError("ffmpeg could not draw the picture: \(made.error)") }
            arguments = ["/usr/bin/python3", "\(Paths.repository)/Tests/Programs/mjpeg-camera.py", String(port), picture] + (fault.map { [$0] } ?? [])
        case .srt:
            // srtsink listens for caller after caller, as an SRT encoder does (ffmpeg ends with its first).
            // Left to choose, x264enc encodes 4:4:4 at 10 bits: a camera's picture pipcam converts. Its
            // sound is an 880 Hz tone in AAC, as encoders send.
            udp = true
            arguments = ["gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "pattern=white", "!", "video/x-raw,width=640,height=360,framerate=15/1",
                         "!", "x264enc", "tune=zerolatency", "speed-preset=ultrafast", "key-int-max=15", "!", "mux.",
                         "audiotestsrc", "is-live=true", "freq=880", "volume=0.4", "!", "audio/x-raw,rate=48000,channels=1", "!", "avenc_aac", "!", "aacparse", "!", "mux.",
                         "mpegtsmux", "name=mux", "!", "srtsink", "uri=srt://127.0.0.1:\(port)?mode=listener", "wait-for-connection=false"]
        }
        let started = try Command.start(arguments)
        try MediaServers.wait(for: "the network camera on 127.0.0.1:\(port)", of: started) {
            MediaServers.holds(started, port: port, udp: udp)
        }
        command.withValue { $0 = started }
    }
}
