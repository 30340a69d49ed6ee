/// What a recording does when a camera or microphone fails, freezes or goes away while it runs
/// (AVFoundation's session interruptions): by default it goes on without the device, shows a slate in
/// the camera's place, and takes the device back when it returns.
public struct DeviceLossPolicy: Sendable, Equatable {
    public enum Action: String, Sendable, CaseIterable {
        /// The recording goes on: a slate for a camera, silence for a microphone, until the device returns.
        case `continue`
        /// The recording ends with what was recorded (the file finalized), as a failure.
        case stop
    }

    public var action: Action = .continue
    /// How long a camera may deliver no frame (a microphone no sound) before it counts as lost.
    public var silenceTimeout: Duration = .seconds(2)

    public init(action: Action = .continue, silenceTimeout: Duration = .seconds(2)) {
        self.action = action
        self.silenceTimeout = silenceTimeout
    }
}

/// Why a device stopped counting as part of the recording.
public enum InterruptionReason: Sendable, Equatable, CustomStringConvertible {
    /// The device reported an error (GStreamer's text for it).
    case failed(String)
    /// The device left the system (unplugged, driver unbound).
    case removed
    /// No frame (or sound) for this long, with no error.
    case silent(Duration)
    /// An optional device that could not be opened when the recording started (absent, or held by
    /// another program: the text says which).
    case unavailable(String)

    public var description: String {
        switch self {
        case .failed(let text): text
        case .removed: "the device went away"
        case .silent(let time): "no data for \(String(format: "%.1f", time.seconds)) s"
        case .unavailable(let text): text
        }
    }

    /// One word for machines: "failed", "removed", "silent" or "unavailable".
    public var kind: String {
        switch self {
        case .failed: "failed"
        case .removed: "removed"
        case .silent: "silent"
        case .unavailable: "unavailable"
        }
    }
}

/// A stretch of a recording without one of its devices, in recording time.
public struct Interruption: Sendable, Equatable {
    public let inputID: String
    public let reason: InterruptionReason
    public let from: Duration
    /// When the device came back; nil while it is still away.
    public var to: Duration?

    public init(inputID: String, reason: InterruptionReason, from: Duration, to: Duration? = nil) {
        self.inputID = inputID
        self.reason = reason
        self.from = from
        self.to = to
    }
}
