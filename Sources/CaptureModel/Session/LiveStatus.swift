/// A snapshot for the status line.
public struct LiveStatus: Sendable {
    public let elapsed: Duration
    public let frames: [(inputID: String, count: Int)]
    public let dropped: Int
    public let fileSize: Int64?
    /// Inputs whose device is away now, and since when (recording time).
    public var away: [(inputID: String, since: Duration)] = []
    /// Each microphone's sound lost on its way into the file so far, by input: the machine fell behind.
    public var soundLost: [String: Duration] = [:]
    /// Each stream's state and rate.
    public var streams: [StreamStatus] = []
    /// Each microphone's sound now, by input.
    public var soundLevels: [String: SoundLevel] = [:]
    /// What needs looking at in a microphone's sound now, by input: "clipping" or "silent" (`SoundWatch`).
    public var soundAlerts: [String: String] = [:]
    /// How long the pause under way has lasted; nil when not paused.
    public var paused: Duration?
    /// How much the file holds: the time since the start, less every pause.
    public var recorded: Duration?
    /// Chapter marks set so far.
    public var markers = 0
    /// The uploads of finished files; nil without an upload command.
    public var uploads: UploadStatus?

    public init(elapsed: Duration, frames: [(inputID: String, count: Int)], dropped: Int, fileSize: Int64?) {
        self.elapsed = elapsed
        self.frames = frames
        self.dropped = dropped
        self.fileSize = fileSize
    }
}

/// A microphone's sound now, in dBFS (0 is the loudest a sample can be): its peak and its loudness (RMS)
/// over the last tenth of a second, the louder channel of each.
public struct SoundLevel: Sendable, Equatable {
    /// How often the meters are read: often enough for a meter that moves with speech.
    public static let intervalNanoseconds: UInt64 = 100_000_000
    /// What silence reads as, rather than minus infinity.
    public static let floor = -100.0

    public let peak: Double
    public let rms: Double

    public init(peak: Double, rms: Double) {
        self.peak = max(Self.floor, min(0, peak.isNaN ? Self.floor : peak))
        self.rms = max(Self.floor, min(0, rms.isNaN ? Self.floor : rms))
    }
}

extension LiveStatus {
    /// Each microphone's meter as JSON, by input: `{"voice":{"peak":-8.1,"rms":-11.2}}`, to a tenth of a dB.
    public var soundLevelsJSON: JSONValue {
        .object(soundLevels.mapValues { .object(["peak": .number($0.peak, places: 1), "rms": .number($0.rms, places: 1)]) })
    }
}
