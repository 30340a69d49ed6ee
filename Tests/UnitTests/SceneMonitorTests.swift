import Capture
import XCTest

final class SceneMonitorTests: XCTestCase {
    func testTooDarkIsSaidOnceAfterTheHoldTimeAndBrightnessNeedsAMargin() {
        var monitor = SceneMonitor(threshold: 40, holdTime: .seconds(2))
        var said: [SceneMonitor.Advice] = []
        func feed(_ luma: Double, from start: Double, to end: Double) {
            for tenth in Int(start * 10)..<Int(end * 10) {
                if let advice = monitor.observe(meanLuma: luma, at: .milliseconds(tenth * 100)) { said.append(advice) }
            }
        }
        feed(20, from: 0, to: 1.5)
        XCTAssertEqual(said, [], "not dark for long enough")
        feed(60, from: 1.5, to: 2)
        feed(20, from: 2, to: 5)
        XCTAssertEqual(said, [.tooDark(meanLuma: 20)], "said once, 2 s after it went dark again")
        feed(42, from: 5, to: 6)
        XCTAssertEqual(said.count, 1, "just over the threshold is not bright enough yet")
        feed(50, from: 6, to: 7)
        XCTAssertEqual(said.last, .brightEnough(meanLuma: 50))
    }
}
