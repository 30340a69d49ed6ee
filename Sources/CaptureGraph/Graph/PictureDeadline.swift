/// Keeps the composed picture near the clock on a machine that cannot compose every picture in time.
/// Pure logic, fed each composed picture's running time and the clock's; the graph asks the compositor
/// not to compose the pictures it is too late for, and counts them as dropped.
///
/// Left to itself, a compositor slower than the picture's rate falls ever further behind the cameras:
/// in the emulated VM at twice its usual slowness it composed 10 pictures a second of 15, was 24 s behind
/// after 31 s, and took as long to finish after Ctrl-C. Its inputs' queues, meanwhile, dropped all but
/// a frame every few seconds, so a camera back from a loss reached the file seconds after its slate.
struct PictureDeadline: Sendable {
    /// One picture at the configured rate.
    let frame: Duration
    /// How far behind the clock a picture may be composed: the compositor's own latency, which it waits
    /// for a late camera frame.
    let allowance: Duration
    /// A picture composed later than the allowance and this is too late: those up to the clock are skipped.
    static let slack = Duration.milliseconds(500)

    /// The compositor was asked not to compose pictures before this time.
    private var skippingBefore: Duration?
    private var last: Duration?

    init(configuredRate: Double, allowance: Duration) {
        frame = .seconds(1 / max(configuredRate, 1))
        self.allowance = allowance
    }

    struct Decision: Equatable {
        /// Grid pictures between the previous picture and this one that were skipped for being late.
        var dropped: Int
        /// Pictures before this time are too late: the compositor skips them.
        var skipBefore: Duration?
    }

    /// `time`, a composed picture's running time; `now`, the clock's. Not `asking` once the recording's
    /// end is on its way: nothing more is skipped, and what an earlier request left out is still counted.
    mutating func decide(_ time: Duration, now: Duration, asking: Bool = true) -> Decision {
        defer { last = time }
        var decision = Decision(dropped: 0, skipBefore: nil)
        if let last, let until = skippingBefore, until > last {
            let missing = PictureRateLimiter.gridPictures(between: last, and: time, frame: frame)
            decision.dropped = min(missing, PictureRateLimiter.gridPictures(between: last, before: until, frame: frame))
        }
        if asking, now - time > allowance + Self.slack, skippingBefore.map({ time >= $0 }) ?? true {
            let until = now - allowance
            skippingBefore = until
            decision.skipBefore = until
        }
        return decision
    }
}
