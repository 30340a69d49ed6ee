import Capture
import PipcamTestSupport
@testable import pipcam
import XCTest

/// The graph of `pipelines/demo.yaml`, as `pipcam describe --pipeline` prints it, against the line kept
/// in `Golden/demo-launch-line.txt`: a change to the builder shows here as a diff of one line, without
/// running anything. When the change is meant, write the new line there
/// (`pipcam describe --pipeline pipelines/demo.yaml > Tests/UnitTests/Golden/demo-launch-line.txt`).
final class DemoPlanTests: XCTestCase {
    func testTheDemosGraphIsTheKeptOne() throws {
        let options = try SessionOptions.parse(["--pipeline", "\(Paths.repository)/pipelines/demo.yaml"])
        let line = try options.configuration(outputPath: nil, standInsAlways: true).graphPlan().launchLine
        let kept = try String(contentsOfFile: "\(Paths.repository)/Tests/UnitTests/Golden/demo-launch-line.txt", encoding: .utf8)
        XCTAssertEqual(line, kept.trimmingCharacters(in: .newlines))
    }
}
