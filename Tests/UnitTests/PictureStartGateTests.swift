@testable import CaptureGraph
import XCTest

/// Which of the first composed pictures are kept while the cameras start.
final class PictureStartGateTests: XCTestCase {
    private let frame = Duration.milliseconds(66)

    func testPicturesBeforeTheLaterCamerasFirstFrameAreHeldBack() {
        var gate = PictureStartGate(cameras: 2, patience: .seconds(2))
        gate.frame(of: 1, at: .zero)
        XCTAssertFalse(gate.admits(pictureAt: .zero), "the first camera alone: the other's place would be black")
        gate.frame(of: 0, at: frame)
        XCTAssertFalse(gate.admits(pictureAt: .zero), "a picture before the other camera's first frame")
        XCTAssertTrue(gate.admits(pictureAt: frame), "both cameras have a frame in it")
        gate.frame(of: 0, at: frame * 2)
        XCTAssertTrue(gate.admits(pictureAt: frame * 2))
    }

    func testACameraThatGivesNothingIsWaitedForOnlyItsPatience() {
        var gate = PictureStartGate(cameras: 2, patience: .seconds(2))
        gate.frame(of: 0, at: .milliseconds(500))
        XCTAssertFalse(gate.admits(pictureAt: .milliseconds(500)))
        XCTAssertFalse(gate.admits(pictureAt: .milliseconds(2400)))
        XCTAssertTrue(gate.admits(pictureAt: .milliseconds(2500)), "two seconds after the first picture")
        XCTAssertTrue(gate.isOpen)
    }

    func testOnceOpenEveryPictureIsKeptAndOneCameraNeedsNoWait() {
        var gate = PictureStartGate(cameras: 1, patience: .seconds(2))
        gate.frame(of: 0, at: .milliseconds(40))
        XCTAssertTrue(gate.admits(pictureAt: .milliseconds(40)))
        XCTAssertTrue(gate.admits(pictureAt: .milliseconds(10)), "kept even if a later picture's time were earlier")
        XCTAssertTrue(PictureStartGate(cameras: 0, patience: .seconds(2)).isOpen)
    }
}
