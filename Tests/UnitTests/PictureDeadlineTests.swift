@testable import CaptureGraph
import XCTest

/// Which composed pictures come too late, how far a compositor slower than the picture's rate falls
/// behind the clock, and that each picture it never composes is counted dropped once.
final class PictureDeadlineTests: XCTestCase {
    private let frame = 1.0 / 15
    private let allowance = Duration.milliseconds(100)

    /// A compositor that takes `cost` seconds a picture it composes and nothing for one it skips, on the
    /// grid of 15 a second, for `seconds` of clock: how far behind the clock its pictures were at most,
    /// the pictures composed, those it skipped, and those counted dropped as `PicturePacing` counts them.
    /// The compositor's own timestamps are `offset` from the grid's (the frame grid moves them onto it
    /// after the compositor), and it skips those up to the request's time, as a video aggregator does.
    private func compose(cost: Double, offset: Double = 0, seconds: Double = 20) -> (behind: Double, composed: Int, skipped: Int, dropped: Int) {
        var deadline = PictureDeadline(allowance: allowance)
        var gaps = PictureRateLimiter(configuredRate: 15)
        var clock = 0.0, index = 0, behind = 0.0, composed = 0, skipped = 0, dropped = 0
        var skipBefore: Duration?
        while clock < seconds {
            let time = Double(index) * frame
            index += 1
            if let skipBefore, Duration.seconds(time + offset) <= skipBefore {
                skipped += 1
                continue
            }
            // Composed once its time and the compositor's latency have passed, and the last one is done.
            clock = max(clock, time + 0.1) + cost
            composed += 1
            behind = max(behind, clock - time)
            let decision = gaps.decide(.seconds(time))
            dropped += decision.missing - decision.skipped
            if let until = deadline.skipBefore(.seconds(time), now: .seconds(clock)) { skipBefore = until }
        }
        return (behind, composed, skipped, dropped)
    }

    func testACompositorThatKeepsUpDropsNothing() {
        let result = compose(cost: 0.04)
        XCTAssertEqual(result.skipped, 0)
        XCTAssertEqual(result.dropped, 0)
        XCTAssertLessThan(result.behind, 0.2)
    }

    func testACompositorAtTwoThirdsOfTheRateStaysNearTheClockAndCountsWhatItSkips() {
        let result = compose(cost: frame * 1.5)
        XCTAssertLessThan(result.behind, 0.1 + 0.5 + 2 * frame, "never further behind than the allowance, the slack and a picture")
        XCTAssertGreaterThan(result.skipped, 0)
        XCTAssertEqual(result.dropped, result.skipped, "every picture never composed is counted dropped, once")
        XCTAssertEqual(Double(result.composed), 20 / (frame * 1.5), accuracy: 15, "it composes as many as it can")
    }

    /// The compositor's timestamps off the grid by up to half a picture each way: it then skips a picture
    /// more or less than the request's time on the grid says, and the count follows what it skipped (in
    /// device runs beside two CPU hogs, a file missed one picture more than it reported, twice).
    func testACompositorOffTheGridIsCountedForWhatItSkipped() {
        for offset in [-0.49, -0.25, 0.25, 0.49].map({ $0 * frame }) {
            let result = compose(cost: frame * 1.5, offset: offset)
            XCTAssertGreaterThan(result.skipped, 0)
            XCTAssertEqual(result.dropped, result.skipped, "every picture never composed is counted dropped, once (offset \(offset) s)")
        }
    }

    /// Once the recording's end is on its way nothing more is skipped.
    func testAtTheEndNothingMoreIsAsked() {
        var deadline = PictureDeadline(allowance: allowance)
        XCTAssertEqual(deadline.skipBefore(.seconds(1), now: .seconds(2)), .milliseconds(1900), "a second late: skip to the clock")
        XCTAssertNil(deadline.skipBefore(.seconds(29.0 / 15), now: .seconds(4), asking: false), "two seconds late, yet nothing more is skipped at the end")
    }

    func testPicturesBehindByLessThanTheSlackAreComposed() {
        var deadline = PictureDeadline(allowance: allowance)
        XCTAssertNil(deadline.skipBefore(.seconds(1), now: .milliseconds(1550)))
        XCTAssertEqual(deadline.skipBefore(.seconds(1 + frame), now: .milliseconds(1700)), .milliseconds(1600),
                       "the pictures up to the clock, less the allowance, are skipped")
        XCTAssertNil(deadline.skipBefore(.seconds(1 + 2 * frame), now: .milliseconds(2400)), "not again before the skipped pictures have passed")
    }
}
