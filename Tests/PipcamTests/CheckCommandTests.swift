import Capture
import CaptureGraph
import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam check`, and `record` refusing or adjusting a session over budget. Each test keeps the
/// machine's measurement in a cache folder of its own.
final class CheckCommandTests: XCTestCase {
    func testCheckMeasuresTheMachineOnceAndTheDemoFits() throws {
        let cache = try Paths.scratch("check-cache")
        let demo = "\(Paths.repository)/pipelines/demo.yaml"
        let first = try Command.run([Paths.pipcam, "check", "--pipeline", demo], environment: ["XDG_CACHE_HOME": cache])
        XCTAssertEqual(first.status, 0, first.error)
        XCTAssertTrue(first.error.contains("measuring this machine"), first.error)
        let lines = first.output.split(separator: "\n").map(String.init)
        let headline = try XCTUnwrap(lines.first)
        XCTAssertTrue(headline.hasPrefix("\(demo): hardware cost 0."), headline)
        XCTAssertTrue(headline.hasSuffix("fits (1 is all this machine has)"), headline)
        XCTAssertTrue(lines.contains("  usb: no camera on a USB bus"), first.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("    draw test patterns") && $0.hasSuffix("front 1280x720 @ 30, side 384x216 @ 30") }, first.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("    encode") && $0.hasSuffix("picture 1280x720 @ 30") }, first.output)
        XCTAssertEqual(lines.last, "  under load, in steps: inset camera at 50 %, main camera at 75 %, 20 fps, 15 fps")

        let stored = try XCTUnwrap(FileManager.default.contents(atPath: "\(cache)/pipcam/pixel-budget.json"))
        let budget = try XCTUnwrap(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
        for stage in ["generate", "decode", "composite", "encode"] {
            XCTAssertGreaterThan(budget[stage] as? Double ?? 0, 0, "\(stage) in \(budget)")
        }

        let second = try Command.run([Paths.pipcam, "check", "--pipeline", demo], environment: ["XDG_CACHE_HOME": cache])
        XCTAssertEqual(second.status, 0, second.error)
        XCTAssertFalse(second.error.contains("measuring"), "measured once: \(second.error)")
        XCTAssertEqual(second.output, first.output, "the same measurement gives the same cost")
    }

    func testOverBudgetCheckSaysWhatToChangeAndRecordWarnsOrRefusesInOneLine() throws {
        let folder = try Paths.scratch("over-budget")
        let environment = try knownMachine(in: folder)
        let heavy = "\(folder)/heavy.yaml"
        try Self.heavy.write(toFile: heavy, atomically: true, encoding: .utf8)

        // Drawing and encoding two 1920x1080 pictures at 30 fps: 1.244 of the 0.8 cores' time pipcam counts on.
        let check = try Command.run([Paths.pipcam, "check", "--pipeline", heavy], environment: environment)
        XCTAssertEqual(check.status, 2, "over budget: \(check.error)")
        XCTAssertTrue(check.output.hasPrefix("\(heavy): hardware cost 1.56, over budget"), check.output)
        XCTAssertTrue(check.output.contains("to fit, one of:\n  lower the frame rate: frame-rate: 15, and 15 in each camera's format  → cost 0.78"), check.output)
        XCTAssertTrue(check.output.contains("a smaller picture: preset: hd720"), check.output)

        // Stated, the policy refuses; not stated, a CPU estimate over budget only warns (the throttle answers it).
        let strict = "\(folder)/strict.yaml"
        try (Self.heavy + "cost: {over-budget: refuse}\n").write(toFile: strict, atomically: true, encoding: .utf8)
        let warned = try Command.run([Paths.pipcam, "record", "\(folder)/warned.mkv", "--pipeline", heavy, "--duration", "1"], environment: environment)
        XCTAssertEqual(warned.status, 0, warned.error)
        XCTAssertTrue(warned.error.contains("warning: hardware cost 1.56 is over budget"), warned.error)

        let file = "\(folder)/heavy.mkv"
        let refused = try Command.run([Paths.pipcam, "record", file, "--pipeline", strict, "--duration", "1"], environment: environment)
        XCTAssertNotEqual(refused.status, 0)
        let message = refused.error.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(message.split(separator: "\n").count, 1, message)
        XCTAssertTrue(message.contains("hardware cost 1.56 is over budget: the picture work needs 1.56 of the CPU time pipcam can count on; try: lower the frame rate"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing recorded")
    }

    func testAdjustRecordsAtWhatTheMachineCanDo() throws {
        let folder = try Paths.scratch("adjust")
        let environment = try knownMachine(in: folder)
        let adjusting = "\(folder)/adjust.yaml"
        try (Self.heavy + "cost:\n  over-budget: adjust\n").write(toFile: adjusting, atomically: true, encoding: .utf8)
        let file = "\(folder)/adjusted.mkv"
        let result = try Command.run([Paths.pipcam, "record", file, "--pipeline", adjusting, "--duration", "1"], environment: environment)
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.error.contains("adjusted: lower the frame rate: frame-rate: 15"), result.error)
        let video = try XCTUnwrap(try MediaProbe(path: file).videoStreams.first)
        XCTAssertEqual(video.frameRate, "15/1")
        XCTAssertEqual(video.width, 1920)
    }

    func testWithoutCamerasCheckSaysSo() throws {
        let result = try Command.run([Paths.pipcam, "devices", "--json"])
        guard !result.output.contains("\"/dev/") else { throw XCTSkip("this machine has cameras") }
        let check = try Command.run([Paths.pipcam, "check"], environment: try knownMachine(in: try Paths.scratch("no-cameras")))
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.error.contains("pipcam records two cameras, and found no camera"), check.error)
    }

    /// Two synthetic full-HD cameras composed and encoded at full HD.
    static let heavy = """
        preset: hd1080
        cameras:
          - name: front
            synthetic: smpte
            format: {width: 1920, height: 1080, frame-rate: 30}
          - name: side
            synthetic: ball
            format: {width: 1920, height: 1080, frame-rate: 30}

        """

    /// A cache holding a measurement with known rates, so the cost does not depend on this machine:
    /// per core, 200 million drawn and 100 million encoded pixels a second; compositing next to free.
    private func knownMachine(in folder: String) throws -> [String: String] {
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let budget: [String: Any] = [
            "generate": 200e6 / cores, "decode": 500e6 / cores, "composite": 1e12, "encode": 100e6 / cores,
            "cores": Int(cores), "measured": "2025-01-01T00:00:00Z", "encoder": BudgetCalibration.encoderSettings,
        ]
        try FileManager.default.createDirectory(atPath: "\(folder)/cache/pipcam", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: budget).write(to: URL(fileURLWithPath: "\(folder)/cache/pipcam/pixel-budget.json"))
        return ["XDG_CACHE_HOME": "\(folder)/cache"]
    }
}
