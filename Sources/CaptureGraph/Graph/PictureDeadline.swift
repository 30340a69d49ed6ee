/// Keeps the composed picture near the clock on a machine that cannot compose every picture in time.
/// Pure logic, fed each composed picture's running time and the clock's; the graph asks the compositor
/// not to compose the pictures it is too late for. They are counted as dropped where every gap in the
/// composed pictures is (`PictureRateLimiter.Decision`): the compositor leaves out pictures up to the
/// request's time on its own timestamps, which the frame grid then moves by up to half a picture.
///
/// Left to itself, a compositor slower than the picture's rate falls ever further behind the cameras:
/// in the emulated VM at twice its usual slowness it composed 10 pictures a second of 15, was 24 s behind
/// after 31 s, and took as long to finish after Ctrl-C. Its inputs' queues, meanwhile, dropped all but
/// a frame every few seconds, so a camera back from a loss reached the file seconds after its slate.
struct PictureDeadline: Sendable {
    /// How far behind the clock a picture may be composed: the compositor's own latency, which it waits
    /// for a late camera frame.
    let allowance: Duration
    /// A picture composed later than the allowance and this is too late: those up to the clock are skipped.
    static let slack = Duration.milliseconds(500)

    /// The compositor was asked not to compose pictures before this time.
    private var skippingBefore: Duration?

    init(allowance: Duration) {
        self.allowance = allowance
    }

    /// `time`, a composed picture's running time; `now`, the clock's: pictures before the time returned
    /// are too late, and the compositor is to skip them. Not `asking` once the recording's end is on its
    /// way: nothing more is skipped.
    mutating func skipBefore(_ time: Duration, now: Duration, asking: Bool = true) -> Duration? {
        guard asking, now - time > allowance + Self.slack, skippingBefore.map({ time >= $0 }) ?? true else { return nil }
        skippingBefore = now - allowance
        return skippingBefore
    }
}
