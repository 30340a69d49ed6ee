import GStreamer
import XCTest

/// The pause gate's arithmetic: where a running time falls in the file once pauses are left out.
final class PauseGateTests: XCTestCase {
    func testPausesAreLeftOutOfTheFilesTime() {
        let gate = PauseGate()
        XCTAssertEqual(gate.fileTime(of: .seconds(2)), .seconds(2))
        XCTAssertTrue(gate.pause(at: .seconds(3)))
        XCTAssertFalse(gate.pause(at: .seconds(4)), "paused already")
        XCTAssertEqual(gate.fileTime(of: .seconds(5)), .seconds(3), "inside a pause: where it began")
        XCTAssertEqual(gate.state(at: .seconds(5)).pausedSince, .seconds(3))
        XCTAssertEqual(gate.state(at: .seconds(5)).total, .seconds(2))
        XCTAssertEqual(gate.resume(at: .seconds(6)), .seconds(3))
        XCTAssertNil(gate.resume(at: .seconds(7)), "not paused")
        XCTAssertEqual(gate.fileTime(of: .seconds(2)), .seconds(2), "before the pause: unmoved")
        XCTAssertEqual(gate.fileTime(of: .seconds(7)), .seconds(4))
        XCTAssertTrue(gate.pause(at: .seconds(8)))
        XCTAssertEqual(gate.resume(at: .seconds(9)), .seconds(1))
        XCTAssertEqual(gate.fileTime(of: .seconds(10)), .seconds(6))
        XCTAssertNil(gate.state(at: .seconds(10)).pausedSince)
        XCTAssertEqual(gate.state(at: .seconds(10)).total, .seconds(4))
    }

    /// On a 30/s grid a pause starts and ends at the next picture's time, so it leaves out whole pictures:
    /// the last picture before it and the first after it are one frame apart in the file.
    func testOnAFrameGridAPauseLeavesOutWholePictures() {
        let gate = PauseGate(frameRate: Fraction(30, 1))
        let frame = Duration.nanoseconds(33_333_333)
        XCTAssertTrue(gate.pause(at: .milliseconds(1010)))
        XCTAssertEqual(gate.state(at: .seconds(2)).pausedSince, .nanoseconds(1_033_333_333), "picture 31")
        XCTAssertEqual(gate.fileTime(of: .milliseconds(1020)), .milliseconds(1020), "asked, yet before the next picture: still kept")
        XCTAssertEqual(gate.resume(at: .milliseconds(2050)), .nanoseconds(1_033_333_334), "pictures 31 to 61 left out")
        let lastKept = gate.fileTime(of: .seconds(1)), firstAfter = gate.fileTime(of: .nanoseconds(2_066_666_667))
        XCTAssertEqual(firstAfter - lastKept, frame, "one frame apart")
    }
}
