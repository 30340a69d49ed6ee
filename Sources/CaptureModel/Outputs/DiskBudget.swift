/// How long a disk's free space lasts a recording: the file's expected rate (the encoders' bitrates, with
/// the container's share) against the bytes free. pipcam refuses to start with less than a minute left
/// and warns under ten, before and while recording, so a lecture never ends on a full disk unannounced.
public struct DiskBudget: Sendable, Equatable {
    /// Bytes a second the file grows by, about: the encoders' bitrates are targets, not ceilings.
    public let bytesPerSecond: Double

    /// Under this a recording does not start.
    public static let refusedUnder: Duration = .seconds(60)
    /// Under this pipcam says how long is left.
    public static let warnedUnder: Duration = .seconds(600)
    /// Matroska's clusters, cues and block headers, and the encoders' overshoot.
    static let overhead = 1.1

    public init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

    /// The rate `configuration`'s file is written at: the picture, each isolated camera track (at most the
    /// picture's rate each), and each sound track.
    public init(for configuration: SessionConfiguration) {
        guard let movie = configuration.recordedFile else {
            self.init(bytesPerSecond: 0)
            return
        }
        let video = movie.videoBitrate ?? configuration.preset.videoBitrate
        let cameras = configuration.movieConnections(.video).count
        let microphones = configuration.movieConnections(.audio).count
        let soundTracks = microphones == 0 ? 0 : movie.audioTracks == .mixedAndSeparate && microphones > 1 ? 1 + microphones : 1
        let kilobits = video * (1 + (movie.isolatedCameraTracks ? cameras : 0)) + movie.audioBitrate * soundTracks
        self.init(bytesPerSecond: Double(kilobits) * 1000 / 8 * Self.overhead)
    }

    /// How long `freeBytes` last at this rate; nil when nothing is written.
    public func timeLeft(freeBytes: Int64) -> Duration? {
        guard bytesPerSecond > 0 else { return nil }
        return .milliseconds(Int64(Double(max(0, freeBytes)) / bytesPerSecond * 1000))
    }

    /// Less room than ten minutes of recording: how much, said with the numbers it comes from.
    public struct Shortfall: Sendable, Equatable {
        /// Less than a minute: too little to start a recording.
        public let isRefused: Bool
        /// "12 MiB free for talk.mkv, about 40 s at 2.5 Mbit/s".
        public let room: String

        public init(isRefused: Bool, room: String) {
            self.isRefused = isRefused
            self.room = room
        }
    }

    /// Nil when `freeBytes` last ten minutes or more (or nothing is written).
    public func shortfall(freeBytes: Int64, path: String) -> Shortfall? {
        guard let left = timeLeft(freeBytes: freeBytes), left < Self.warnedUnder else { return nil }
        return Shortfall(isRefused: left < Self.refusedUnder,
                         room: "\(Self.size(freeBytes)) free for \(path), about \(Self.minutes(left)) at \(Self.rate(bytesPerSecond))")
    }

    static func size(_ bytes: Int64) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        return mebibytes >= 1024 ? "\(rounded(mebibytes / 1024)) GiB" : "\(rounded(mebibytes)) MiB"
    }

    static func minutes(_ time: Duration) -> String {
        let seconds = Int(time.components.seconds)
        return seconds < 120 ? "\(seconds) s" : "\(seconds / 60) min"
    }

    static func rate(_ bytesPerSecond: Double) -> String {
        "\(rounded(bytesPerSecond * 8 / 1_000_000)) Mbit/s"
    }

    private static func rounded(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
    }
}
