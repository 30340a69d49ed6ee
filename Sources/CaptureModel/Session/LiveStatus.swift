/// A snapshot for the status line.
public struct LiveStatus: Sendable {
    public let elapsed: Duration
    public let frames: [(inputID: String, count: Int)]
    public let dropped: Int
    public let fileSize: Int64?
    /// Inputs whose device is away now, and since when (recording time).
    public var away: [(inputID: String, since: Duration)] = []
    /// Each stream's state and rate.
    public var streams: [StreamStatus] = []

    public init(elapsed: Duration, frames: [(inputID: String, count: Int)], dropped: Int, fileSize: Int64?) {
        self.elapsed = elapsed
        self.frames = frames
        self.dropped = dropped
        self.fileSize = fileSize
    }
}
