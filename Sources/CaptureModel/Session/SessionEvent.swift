/// What a running session reports, as AVFoundation's session notifications.
public enum SessionEvent: Sendable {
    case started
    /// The session stopped; the summary describes what was recorded.
    case stopped(RecordingSummary)
    /// A structural commit finished one file; recording goes on in the next.
    case segmentFinished(RecordingSummary)
    /// A device or element failed while running (`CaptureError.streamFailed`, naming the input when the
    /// failure is in its branch), or the disk is full (`diskFull`: the session stops while there is room
    /// left to finish the file).
    case runtimeError(CaptureError)
    /// The user closed the preview window: the session stops as if asked to, its file finalized.
    case previewClosed
    /// An input's device failed, froze or went away, at this recording time; the recording goes on
    /// without it (a slate in a camera's place, silence for a microphone) until it is back.
    case interrupted(input: String, reason: InterruptionReason, at: Duration)
    /// The input's device is back in the recording, at this recording time.
    case interruptionEnded(input: String, at: Duration)
    /// A sample of system pressure (about once a second while running).
    case pressure(PressureSample)
    /// A throttle step taken or given back.
    case throttled(ThrottleEvent)
    /// Something the session could not do, at no cost to the recording.
    case warning(String)
    /// A recording of pipcam's own cut off beside this one's file (a crash, a kill, a power cut) was
    /// made playable and seekable before this one started; it holds this long.
    case repaired(path: String, duration: Duration)
    /// A camera's controls were changed while recording (live, or to follow a matched camera), at this
    /// recording time: the controls written, read back from the camera.
    case controlsChanged(camera: String, controls: [CameraControl], at: Duration)
    /// A stream connected, was lost (and is tried again) or fell behind, at no cost to the file.
    case stream(StreamEvent)
    /// A microphone clips, has been silent a while, or is heard again (`SoundWatch`).
    case sound(SoundAlert)
    /// A finished file was sent off, a try failed (it is tried again), or it went before it was sent.
    case upload(UploadReport)
    /// A chapter mark was set, at its time in the file.
    case marker(Marker)
    /// The recording paused at this time in the file: nothing is encoded until it resumes.
    case paused(at: Duration)
    /// The recording resumed at this time in the file (where a chapter marks it), after a pause this long.
    case resumed(at: Duration, after: Duration)
}

/// What a recording holds when it stops.
public struct RecordingSummary: Sendable, CustomStringConvertible {
    public struct Camera: Sendable {
        public let inputID: String
        public let mode: String
        /// Frames the camera delivered.
        public let frames: Int
        /// Frames that never reached the picture (dropped by a leaky queue when the graph was behind).
        public let dropped: Int

        package init(inputID: String, mode: String, frames: Int, dropped: Int) {
            self.inputID = inputID
            self.mode = mode
            self.frames = frames
            self.dropped = dropped
        }
    }

    public let path: String?
    /// Recorded duration: up to the end of the last picture written to the file.
    public var duration: Duration
    public let cameras: [Camera]
    /// Pictures in the file, and their size and rate ("1280x720 @ 30 fps"): what a reader of the file counts.
    public var pictures = 0
    public var pictureMode = ""
    /// Composed pictures dropped because encoding fell behind.
    public let droppedPictures: Int
    public let fileSize: Int64?
    /// Why the file could not be finalized (it still plays, but may lack its duration and index).
    public var problem: String? = nil
    /// Stretches recorded without one of the devices, in order.
    public var interruptions: [Interruption] = []
    /// Each microphone's sound lost on its way into the file, by input: the machine fell behind.
    public var soundLost: [String: Duration] = [:]
    /// A recording in parts: the parts on the disk, in order, and how many older ones `keep` deleted.
    public var parts: [String] = []
    public var deletedParts = 0
    /// Each stream's time live, reconnects and data sent.
    public var streams: [StreamSummary] = []
    /// The chapter marks in the file (or its parts), in order.
    public var markers: [Marker] = []
    /// How often the recording was paused, and for how long in all (left out of the file).
    public var pauses = 0
    public var pausedTime: Duration = .zero
    /// Where the uploads stood when the recording stopped; nil without an upload command.
    public var uploads: UploadStatus?

    package init(path: String?, duration: Duration, cameras: [Camera], droppedPictures: Int, fileSize: Int64?, problem: String? = nil) {
        self.path = path
        self.duration = duration
        self.cameras = cameras
        self.droppedPictures = droppedPictures
        self.fileSize = fileSize
        self.problem = problem
    }

    public var isFinalized: Bool { problem == nil }

    /// "recorded 2.08 s to talk.mkv" (or "to talk.mkv … talk-3.mkv (3 parts)"; "streamed 2.08 s" with
    /// no file): the summary's first line.
    public var recordedLine: String {
        if path == nil && parts.isEmpty && !streams.isEmpty { return "streamed \(Self.seconds(duration))" }
        let written: String?
        switch parts.count {
        case 0: written = path
        case 1: written = parts[0]
        default: written = "\(parts[0]) … \(parts[parts.count - 1]) (\(parts.count) parts)"
        }
        return "recorded \(Self.seconds(duration))" + (written.map { " to \($0)" } ?? "")
    }

    public var description: String {
        var lines = [recordedLine]
        let kept = deletedParts > 0 ? "recorded" : parts.count > 1 ? "in the parts" : "in the file"
        if path != nil { lines.append("  picture: \(pictures) frames \(kept) (\(pictureMode))") }
        for camera in cameras {
            lines.append(camera.frames == 0 ? "  \(camera.inputID): no frames captured (no picture from the camera reached the recording)"
                : "  \(camera.inputID): \(camera.frames) frames captured (\(camera.mode)), \(camera.dropped) dropped")
        }
        for gap in interruptions {
            let end = gap.to.map(Self.clock) ?? "the end"
            lines.append("  \(gap.inputID) was away from \(Self.clock(gap.from)) to \(end): \(gap.reason)")
        }
        for marker in markers { lines.append("  marker at \(Self.clock(marker.time)): \(marker.title)") }
        if let uploads { lines.append("  \(uploads.text)") }
        if pauses > 0 { lines.append("  paused \(pauses == 1 ? "once" : "\(pauses) times"), \(Self.seconds(pausedTime)) left out") }
        if droppedPictures > 0 { lines.append("  \(droppedPictures) pictures dropped: the machine could not keep up") }
        for (inputID, lost) in soundLost.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(inputID): \(Self.seconds(lost)) of its sound lost: the machine could not keep up")
        }
        if deletedParts > 0 { lines.append("  \(deletedParts) older parts deleted, as keep asks") }
        if let fileSize { lines.append("  \(parts.count > 1 ? "size of the parts" : "file size"): \(Self.bytes(fileSize))") }
        lines += streams.map(\.line)
        if let problem { lines.append("  the file was not finalized: \(problem)") }
        return lines.joined(separator: "\n")
    }

    /// A recording time as the status line shows it: "01:02.5".
    public static func clock(_ time: Duration) -> String {
        let seconds = max(0, time.seconds)
        return String(format: "%02d:%04.1f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
    }

    public static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", duration.seconds)
    }

    /// A file size as people read it: "812.4 KiB", "3.1 MiB".
    public static func bytes(_ count: Int64) -> String {
        count >= 1 << 20 ? String(format: "%.1f MiB", Double(count) / 1048576) : String(format: "%.1f KiB", Double(count) / 1024)
    }
}

import Foundation

extension Duration {
    /// The duration in seconds, for display and arithmetic with rates.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
