@testable import CaptureGraph
import XCTest

/// Which of the first composed pictures are kept while the cameras start.
final class PictureStartGateTests: XCTestCase {
    private let frame = Duration.milliseconds(66)

    func testPicturesWithoutEveryCameraAreHeldBack() {
        var gate = PictureStartGate(cameras: 2, patience: .seconds(2))
        XCTAssertFalse(gate.admits(pictureAt: .zero, everyCameraShown: false), "one camera alone: the other's place would be black")
        XCTAssertTrue(gate.admits(pictureAt: frame, everyCameraShown: true), "both cameras have a frame in it")
        XCTAssertTrue(gate.admits(pictureAt: frame * 2, everyCameraShown: false), "once kept, every later picture is")
    }

    func testACameraThatGivesNothingIsWaitedForOnlyItsPatience() {
        var gate = PictureStartGate(cameras: 2, patience: .seconds(2))
        XCTAssertFalse(gate.admits(pictureAt: .milliseconds(500), everyCameraShown: false))
        XCTAssertFalse(gate.admits(pictureAt: .milliseconds(2400), everyCameraShown: false))
        XCTAssertTrue(gate.admits(pictureAt: .milliseconds(2500), everyCameraShown: false), "two seconds after the first picture")
        XCTAssertTrue(gate.isOpen)
    }

    func testOnceOpenEveryPictureIsKeptAndNoCamerasNeedNoWait() {
        var gate = PictureStartGate(cameras: 1, patience: .seconds(2))
        XCTAssertTrue(gate.admits(pictureAt: .milliseconds(40), everyCameraShown: true))
        XCTAssertTrue(gate.admits(pictureAt: .milliseconds(10), everyCameraShown: false), "kept even if a later picture's time were earlier")
        XCTAssertTrue(PictureStartGate(cameras: 0, patience: .seconds(2)).isOpen)
    }
}
