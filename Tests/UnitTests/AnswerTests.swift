import Locking
import XCTest

/// The one timed wait: the first answer counts, a late one is waited for no longer than the limit, and a
/// thread that never returns costs its caller the limit alone.
final class AnswerTests: XCTestCase {
    func testTheFirstAnswerCountsAndIsKept() {
        let answer = Answer<Int>()
        XCTAssertTrue(answer.give(1))
        XCTAssertFalse(answer.give(2), "a second answer is dropped")
        XCTAssertEqual(answer.wait(atMost: .zero), 1)
        XCTAssertEqual(answer.wait(atMost: .seconds(1)), 1, "waited for again, it is still there")
    }

    func testAnAnswerNotGivenInTimeIsNil() {
        let answer = Answer<String?>()
        let started = ContinuousClock.now
        XCTAssertEqual(answer.wait(atMost: .milliseconds(50)), String??.none, "no answer yet")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(50), "it waited the limit")
        answer.give(nil)
        XCTAssertEqual(answer.wait(atMost: .zero), .some(nil), "an answer of nothing is an answer")
    }

    func testAnAnswerFromAnotherThreadWakesTheWait() {
        let answer = Answer<Int>(), release = Answer<Void>()
        NamedThread.start("pipcam-test") {
            _ = release.wait(atMost: .seconds(30))
            answer.give(7)
        }
        release.give(())
        XCTAssertEqual(answer.wait(atMost: .seconds(30)), 7)
    }

    func testWithinReturnsWhatTheBodyReturnsOrNilWhenItHangs() {
        XCTAssertEqual(Blocking.within(.seconds(30), "pipcam-test") { 6 * 7 }, 42)
        let hanging = Answer<Void>()
        defer { hanging.give(()) }
        let hung: Void? = Blocking.within(.milliseconds(50), "pipcam-test") { _ = hanging.wait(atMost: .seconds(30)) }
        XCTAssertNil(hung)
    }
}
