@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import XCTest

/// The throttle ladder: its rungs, when it steps, and that it neither oscillates nor goes below the floor.
final class ThrottleTests: XCTestCase {
    func reading(_ level: PressureLevel) -> PressureReading {
        let value: Double = [.nominal: 0.2, .fair: 0.7, .serious: 0.9, .critical: 0.99, .shutdown: 1][level]!
        return PressureReading(factors: [PressureFactor(kind: .processCPU, value: value, level: level)])
    }

    /// Feeds one reading a second from `start` and returns the events with the second they came at.
    func run(_ controller: inout ThrottleController, from start: Int = 0, seconds: Int, _ level: (Int) -> PressureLevel) -> [(Int, ThrottleEvent)] {
        var events: [(Int, ThrottleEvent)] = []
        for second in start..<(start + seconds) {
            if let event = controller.observe(reading(level(second)), at: .seconds(second)) { events.append((second, event)) }
        }
        return events
    }

    func testTheDefaultLadderIsAVMultiCamPiPs() {
        let ladder = ThrottlePolicy().ladder(frameRate: 30)
        XCTAssertEqual(ladder.rungs.map(\.change), ["", "inset camera at 50 %", "main camera at 75 %", "20 fps", "15 fps"])
        XCTAssertEqual(ladder.rungs.last?.settings, ThrottleSettings(insetScale: 0.5, mainScale: 0.75, frameRate: 15))
        XCTAssertEqual(ladder.rungs[0].settings, ThrottleSettings(frameRate: 30))
    }

    func testFrameRateStepsStopAtTheFloor() {
        func rates(_ rate: Double, floor: Double = 15) -> [Double] {
            ThrottleLadder(frameRate: rate, steps: [.frameRate(by: 10)], floor: floor).rungs.map(\.settings.frameRate)
        }
        XCTAssertEqual(rates(60), [60, 50, 40, 30, 20, 15])
        XCTAssertEqual(rates(25), [25, 15])
        XCTAssertEqual(rates(15), [15], "at the floor already")
        XCTAssertEqual(rates(10), [10], "below the floor: never raised, never lowered")
        XCTAssertEqual(rates(30, floor: 24), [30, 24])
        let sizes = ThrottleLadder(frameRate: 30, steps: [.insetSize(0.5), .insetSize(0.75), .mainSize(1)], floor: 15)
        XCTAssertEqual(sizes.rungs.count, 2, "steps that would not make a camera smaller add no rung")
    }

    func testAStepDownNeedsSustainedSeriousPressureAndEachStepItsOwnWait() {
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        let events = run(&controller, seconds: 10) { _ in .serious }
        XCTAssertEqual(events.map(\.0), [3, 6, 9])
        XCTAssertEqual(events.map(\.1.kind), [.throttle, .throttle, .throttle])
        XCTAssertEqual(events.map(\.1.change), ["inset camera at 50 %", "main camera at 75 %", "20 fps"])
        XCTAssertEqual(events[0].1.reason, "pressure serious for 3 s: cpu 90 % of all cores")
        XCTAssertEqual(controller.settings, ThrottleSettings(insetScale: 0.5, mainScale: 0.75, frameRate: 20))

        var interrupted = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        XCTAssertTrue(run(&interrupted, seconds: 12) { $0 % 3 == 2 ? .fair : .critical }.isEmpty, "a fair sample restarts the wait")
    }

    func testTheFloorHolds() {
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        let events = run(&controller, seconds: 600) { _ in .critical }
        XCTAssertEqual(events.count, 4, "four rungs below 30 fps, then nothing more to give")
        XCTAssertEqual(controller.settings.frameRate, 15)
        XCTAssertEqual(controller.step, controller.ladder.bottom)
    }

    func testRestoringClimbsOneRungAtATimeInReverseOrder() {
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        _ = run(&controller, seconds: 13) { _ in .serious }                     // steps at 3, 6, 9 and 12 s
        XCTAssertEqual(controller.step, 4)
        XCTAssertTrue(run(&controller, from: 13, seconds: 60) { _ in .fair }.isEmpty, "fair holds the rung")
        let restores = run(&controller, from: 73, seconds: 100) { _ in .nominal }
        XCTAssertEqual(restores.map(\.1.kind), [.restore, .restore, .restore, .restore])
        XCTAssertEqual(restores.map(\.1.change), ["15 fps", "20 fps", "main camera at 75 %", "inset camera at 50 %"])
        XCTAssertEqual(restores.map(\.1.settings.frameRate), [20, 30, 30, 30])
        XCTAssertEqual(restores.map(\.0), [88, 103, 118, 133], "15 s of nominal pressure before each")
        XCTAssertEqual(restores.last?.1.reason, "pressure nominal for 15 s")
        XCTAssertEqual(controller.settings, ThrottleSettings(frameRate: 30))
    }

    func testAlternatingPressureDoesNotOscillate() {
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        XCTAssertTrue(run(&controller, seconds: 600) { $0 % 2 == 0 ? .serious : .nominal }.isEmpty)

        // Longer swings: enough to step down, never calm long enough to climb back.
        var swinging = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        let events = run(&swinging, seconds: 600) { ($0 / 5) % 2 == 0 ? .serious : .nominal }
        XCTAssertFalse(events.isEmpty)
        XCTAssertTrue(events.allSatisfy { $0.1.kind == .throttle }, "\(events.map(\.1.summary))")
    }

    func testLoadThatReturnsWithTheRestoredSettingsBacksOffTheRestores() {
        // The machine copes at rung 1 but not at rung 0: each restore brings the load back.
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        var events: [(Int, ThrottleEvent)] = []
        for second in 0..<900 {
            let level: PressureLevel = controller.step == 0 ? .serious : .nominal
            if let event = controller.observe(reading(level), at: .seconds(second)) { events.append((second, event)) }
        }
        let restores = events.filter { $0.1.kind == .restore }.map(\.0)
        let waits = zip(restores.dropFirst(), restores).map { $0 - $1 }
        // Between restores: the sample that brings the load back, 3 s to step down, then the wait.
        XCTAssertEqual(waits.prefix(3), [35, 65, 125], "each premature restore doubles the wait: 30, 60, 120 s")
        XCTAssertEqual(Set(waits.dropFirst(2)), [125], "up to eight times restore-after")
        XCTAssertLessThanOrEqual(restores.count, 9, "an unchecked ladder would restore every 18 s: 50 times")
        XCTAssertEqual(controller.restoreWait, .seconds(120))
    }

    func testARestoreThatHoldsShortensTheWaitAgain() {
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        _ = run(&controller, seconds: 7) { _ in .serious }                      // down to rung 2 at 3 and 6 s
        _ = run(&controller, from: 7, seconds: 16) { _ in .nominal }            // back to rung 1 at 22 s
        _ = run(&controller, from: 23, seconds: 4) { _ in .serious }            // premature: rung 2 again at 26 s
        XCTAssertEqual(controller.restoreWait, .seconds(30))
        let calm = run(&controller, from: 27, seconds: 100) { _ in .nominal }
        XCTAssertEqual(calm.map(\.0), [57, 87], "30 s each; the second restore finds the first held and halves the wait")
        XCTAssertEqual(controller.restoreWait, .seconds(15))
        XCTAssertEqual(controller.step, 0)
    }

    func testADisabledPolicyNeverSteps() {
        var controller = ThrottleController(policy: ThrottlePolicy(isEnabled: false), frameRate: 30)
        XCTAssertTrue(run(&controller, seconds: 100) { _ in .critical }.isEmpty)
    }

    func testAnEventIsOneJSONLineWithAnEventField() throws {
        var controller = ThrottleController(policy: ThrottlePolicy(), frameRate: 30)
        let event = try XCTUnwrap(run(&controller, seconds: 4) { _ in .serious }.first?.1)
        XCTAssertFalse(event.jsonLine.contains("\n"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any])
        XCTAssertEqual(object["event"] as? String, "throttle")
        XCTAssertEqual(object["step"] as? Int, 1)
        XCTAssertEqual(object["steps"] as? Int, 4)
        XCTAssertEqual(object["time"] as? Double, 3)
        XCTAssertEqual(object["reason"] as? String, "pressure serious for 3 s: cpu 90 % of all cores")
        let settings = try XCTUnwrap(object["settings"] as? [String: Double])
        XCTAssertEqual(settings, ["inset-scale": 0.5, "main-scale": 1, "frame-rate": 30])
        XCTAssertEqual(event.summary, "throttled 1/4: inset camera at 50 % (pressure serious for 3 s: cpu 90 % of all cores)")
    }

    func testScaledSizesStayEven() {
        XCTAssertTrue(ThrottleSettings.scaled(width: 1280, height: 720, by: 0.75) == (960, 540))
        XCTAssertTrue(ThrottleSettings.scaled(width: 384, height: 216, by: 0.5) == (192, 108))
        XCTAssertTrue(ThrottleSettings.scaled(width: 350, height: 198, by: 0.33) == (116, 66))
        XCTAssertTrue(ThrottleSettings.scaled(width: 20, height: 20, by: 0.1) == (16, 16))
    }
}
