@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// The description file's `cost:` and `throttle:` sections.
final class PolicyDescriptionTests: XCTestCase {
    func testDefaultsWithoutTheSections() throws {
        let description = try PipelineDescription.parse("preset: hd720\n", file: "t.yaml")
        XCTAssertEqual(description.cost, CostPolicy(overBudget: nil))
        XCTAssertEqual(description.throttle, ThrottlePolicy())
        XCTAssertEqual(description.throttle.steps, [.insetSize(0.5), .mainSize(0.75), .frameRate(by: 10)])
    }

    func testEverySettingIsRead() throws {
        let text = """
            cost:
              over-budget: adjust
            throttle:
              enabled: true
              floor-fps: 20
              step-down-after: 2
              restore-after: 30.5
              steps:
                - frame-rate-step: 5
                - inset-size: 0.25
                - main-size: 0.5
            """
        let description = try PipelineDescription.parse(text, file: "t.yaml")
        XCTAssertEqual(description.cost.overBudget, .adjust)
        XCTAssertEqual(description.throttle, ThrottlePolicy(isEnabled: true, floorFrameRate: 20, stepDownAfter: .seconds(2),
                                                            restoreAfter: .milliseconds(30_500),
                                                            steps: [.frameRate(by: 5), .insetSize(0.25), .mainSize(0.5)]))
        XCTAssertEqual(description.throttle.ladder(frameRate: 30).rungs.map(\.change), ["", "25 fps", "20 fps", "inset camera at 25 %", "main camera at 50 %"])
        XCTAssertFalse(try PipelineDescription.parse("throttle: {enabled: false}\n", file: "t.yaml").throttle.isEnabled)
        XCTAssertEqual(try PipelineDescription.parse("cost: {}\n", file: "t.yaml").cost, CostPolicy())
    }

    func testMistakesNamePlaceAndWhatIsValid() {
        let cases: [(String, String)] = [
            ("cost:\n  over-budget: maybe\n", "t.yaml:2:16: cost.over-budget: 'maybe' is not one of refuse, adjust, warn"),
            ("cost:\n  budget: 2\n", "t.yaml:2:3: cost.budget: unknown key 'budget' (valid keys: over-budget)"),
            ("cost: refuse\n", "t.yaml:1:7: cost: expected a mapping with keys over-budget"),
            ("throttle:\n  floor: 15\n", "t.yaml:2:3: throttle.floor: unknown key 'floor' (valid keys: enabled, floor-fps, step-down-after, restore-after, steps)"),
            ("throttle:\n  floor-fps: 0\n", "t.yaml:2:14: throttle.floor-fps: 0.0 is outside 1.0…120.0"),
            ("throttle:\n  steps:\n    - inset-size: 0.5\n      main-size: 0.5\n", "t.yaml:3:7: throttle.steps[0]: each step is one of inset-size, main-size, frame-rate-step"),
            ("throttle:\n  steps:\n    - resolution: 0.5\n", "t.yaml:3:7: throttle.steps[0].resolution: unknown key 'resolution' (valid keys: inset-size, main-size, frame-rate-step)"),
            ("throttle:\n  steps:\n    - inset-size: 2\n", "t.yaml:3:19: throttle.steps[0].inset-size: 2.0 is outside 0.1…1.0"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try PipelineDescription.parse(text, file: "t.yaml")) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "expected \(expected)\ngot \(error)")
            }
        }
    }

    func testTheConfigurationCarriesThePolicies() throws {
        let text = "cameras:\n  - name: a\n    synthetic: smpte\ncost: {over-budget: warn}\nthrottle: {floor-fps: 10}\n"
        let (configuration, _) = try PipelineDescription.parse(text, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.costPolicy.overBudget, .warn)
        XCTAssertEqual(configuration.throttlePolicy.floorFrameRate, 10)
    }
}
