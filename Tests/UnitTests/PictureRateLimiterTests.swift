@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// Which composed pictures a throttle rung keeps, and which it asks the compositor not to compose.
final class PictureRateLimiterTests: XCTestCase {
    private let frame = 1.0 / 30

    /// Feeds grid pictures 0..<count (skipping those the compositor was asked not to make) and returns
    /// the kept indices and the ones never composed.
    private func run(rate: Double?, count: Int = 30, jitter: (Int) -> Double = { _ in 0 }) -> (kept: [Int], neverComposed: [Int]) {
        var limiter = PictureRateLimiter(configuredRate: 30)
        limiter.rate = rate
        var kept: [Int] = [], skippedUpstream: [Int] = []
        var skipBefore: Duration?
        for index in 0..<count {
            let time = Duration.seconds(Double(index) * frame + jitter(index))
            if let skipBefore, time < skipBefore { skippedUpstream.append(index); continue }
            let decision = limiter.decide(time)
            if decision.keep { kept.append(index) }
            if let until = decision.skipBefore { skipBefore = until }
        }
        return (kept, skippedUpstream)
    }

    func testWithoutARateEveryPictureIsKeptAndNothingIsSkippedUpstream() {
        let result = run(rate: nil)
        XCTAssertEqual(result.kept, Array(0..<30))
        XCTAssertEqual(result.neverComposed, [])
    }

    func testHalfTheRateKeepsEveryOtherPictureAndTheOthersAreNeverComposed() {
        let result = run(rate: 15)
        XCTAssertEqual(result.kept, Array(stride(from: 0, to: 30, by: 2)))
        XCTAssertEqual(result.neverComposed, Array(stride(from: 1, to: 30, by: 2)), "the compositor skips what the rung drops")
    }

    func testTwentyOfThirtyKeepsTwoInThreeEvenly() {
        let result = run(rate: 20)
        XCTAssertEqual(result.kept.count, 20)
        let gaps = zip(result.kept.dropFirst(), result.kept).map { $0 - $1 }
        XCTAssertTrue(gaps.allSatisfy { $0 == 1 || $0 == 2 }, "never two skipped in a row: \(result.kept)")
        XCTAssertEqual(result.neverComposed.count + result.kept.count, 30, "every skipped picture was spared composing")
    }

    func testJitterOfAFewMillisecondsKeepsTheRate() {
        let result = run(rate: 15, count: 60) { index in index % 3 == 0 ? 0.004 : -0.003 }
        XCTAssertEqual(result.kept.count, 30, accuracy: 1)
    }

    func testGridPicturesThatNeverCameAreCountedAsMissing() {
        var limiter = PictureRateLimiter(configuredRate: 30)
        limiter.rate = 15
        XCTAssertEqual(limiter.decide(.zero).missing, 0)
        let later = limiter.decide(.seconds(2 * frame))
        XCTAssertEqual(later.missing, 1, "picture 1 was skipped by the compositor")
        XCTAssertEqual(later.skipped, 1, "as the limiter asked")
        XCTAssertTrue(later.keep)
    }

    /// The rung lifted just after a picture: the one the compositor was asked to leave out still never
    /// comes, and is the limiter's; a gap after that is not.
    func testThePictureLeftOutBeforeTheLimitWasLiftedIsCounted() {
        var limiter = PictureRateLimiter(configuredRate: 30)
        limiter.rate = 15
        _ = limiter.decide(.zero)
        let asked = limiter.decide(.seconds(2 * frame))
        XCTAssertNotNil(asked.skipBefore)
        limiter.rate = nil
        XCTAssertEqual(limiter.decide(.seconds(4 * frame)).skipped, 1, "picture 3, asked to be left out")
        let lost = limiter.decide(.seconds(7 * frame))
        XCTAssertEqual(lost.missing, 2, "pictures 5 and 6 never came")
        XCTAssertEqual(lost.skipped, 0, "and are no request of the limiter's: lost on the way")
    }
}
