import CaptureModel
import Foundation

/// Keeps the composed pictures of a throttle rung's rate out of the configured rate's grid, evenly
/// spaced (20 of 30: two kept, one skipped). Pure logic, fed each picture's running time; the graph
/// drops what it skips and asks the compositor not to compose the pictures it will skip anyway.
struct PictureRateLimiter: Sendable {
    /// One picture at the configured rate.
    let frame: Duration
    /// Pictures a second to keep; nil keeps them all.
    var rate: Double?
    private var next: Duration = .zero
    private var last: Duration?
    /// The compositor was asked not to compose pictures before this: a gap up to it is the limiter's.
    private var askedBefore: Duration?

    init(configuredRate: Double) {
        frame = .seconds(1 / max(configuredRate, 1))
    }

    struct Decision: Equatable {
        var keep: Bool
        /// Grid pictures between the previous picture seen and this one that never came.
        var missing: Int
        /// Those of `missing` the compositor left out as the limiter asked; the others were lost on the way.
        var skipped: Int
        /// Pictures before this time will be skipped: nobody needs them composed.
        var skipBefore: Duration?
    }

    mutating func decide(_ time: Duration) -> Decision {
        defer { last = time }
        let missing = last.map { Self.gridPictures(between: $0, and: time, frame: frame) } ?? 0
        // Only the pictures before the last request are the limiter's, also for the first picture after
        // the limit is lifted.
        let asked = last.flatMap { last in askedBefore.map { Self.gridPictures(between: last, before: $0, frame: frame) } } ?? 0
        let skipped = min(missing, asked)
        guard let rate else {
            askedBefore = nil
            return Decision(keep: true, missing: missing, skipped: skipped, skipBefore: nil)
        }
        guard time >= keptFrom else { return Decision(keep: false, missing: missing, skipped: skipped, skipBefore: nil) }
        next = max(next + .seconds(1 / rate), time)
        askedBefore = keptFrom
        return Decision(keep: true, missing: missing, skipped: skipped, skipBefore: keptFrom)
    }

    /// The grid pictures of `frame` that fit between a picture at `first` and one at `next`: those a gap
    /// between the two left out.
    static func gridPictures(between first: Duration, and next: Duration, frame: Duration) -> Int {
        max(0, Int(((next - first) / frame).rounded()) - 1)
    }

    /// The grid pictures of `frame` after a picture at `first` and before `until`: those a request not to
    /// compose pictures before `until` left out.
    static func gridPictures(between first: Duration, before until: Duration, frame: Duration) -> Int {
        max(0, Int(((until - first) / frame - 0.01).rounded(.up)) - 1)
    }

    /// A picture is kept from half a grid frame before its turn, so jitter never skips two in a row.
    private var keptFrom: Duration { next - frame / 2 - .microseconds(100) }
}
