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
}
