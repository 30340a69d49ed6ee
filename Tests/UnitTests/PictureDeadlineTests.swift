@testable import CaptureGraph
import XCTest

/// Which composed pictures come too late, and how far a compositor slower than the picture's rate falls
/// behind the clock.
final class PictureDeadlineTests: XCTestCase {
    private let frame = 1.0 / 15
    private let allowance = Duration.milliseconds(100)

    /// A compositor that takes `cost` seconds a picture it composes and nothing for one it skips, on the
    /// grid of 15 a second, for `seconds` of clock: how far behind the clock its pictures were at most,
    /// the pictures composed, those it skipped, and those the deadline counted as dropped.
    private func compose(cost: Double, seconds: Double = 20) -> (behind: Double, composed: Int, skipped: Int, dropped: Int) {
        var deadline = PictureDeadline(configuredRate: 15, allowance: allowance)
        var clock = 0.0, index = 0, behind = 0.0, composed = 0, skipped = 0, dropped = 0
        var skipBefore: Duration?
        while clock < seconds {
            let time = Double(index) * frame
            index += 1
            if let skipBefore, Duration.seconds(time) < skipBefore {
                skipped += 1
                continue
            }
            // Composed once its time and the compositor's latency have passed, and the last one is done.
            clock = max(clock, time + 0.1) + cost
            composed += 1
            behind = max(behind, clock - time)
            let decision = deadline.decide(.seconds(time), now: .seconds(clock))
            dropped += decision.dropped
            if let until = decision.skipBefore { skipBefore = until }
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

    /// Once the recording's end is on its way nothing more is skipped, yet the pictures an earlier request
    /// left out are counted: in one device run beside a CPU hog, the one picture a file missed unreported.
    func testAtTheEndWhatWasSkippedIsCountedAndNothingMoreIsAsked() {
        var deadline = PictureDeadline(configuredRate: 15, allowance: allowance)
        XCTAssertEqual(deadline.decide(.seconds(1), now: .seconds(2)).skipBefore, .milliseconds(1900), "a second late: skip to the clock")
        let next = deadline.decide(.seconds(29.0 / 15), now: .seconds(4), asking: false)
        XCTAssertEqual(next.dropped, 13, "pictures 16 to 28, left out")
        XCTAssertNil(next.skipBefore, "two seconds late, yet nothing more is skipped at the end")
    }

    func testPicturesBehindByLessThanTheSlackAreComposed() {
        var deadline = PictureDeadline(configuredRate: 15, allowance: allowance)
        XCTAssertNil(deadline.decide(.seconds(1), now: .milliseconds(1550)).skipBefore)
        let late = deadline.decide(.seconds(1 + frame), now: .milliseconds(1700))
        XCTAssertEqual(late.skipBefore, .milliseconds(1600), "the pictures up to the clock, less the allowance, are skipped")
        XCTAssertEqual(deadline.decide(.seconds(1.6), now: .milliseconds(1750)).dropped, 7, "the grid pictures between 1.07 s and 1.6 s")
    }
}
