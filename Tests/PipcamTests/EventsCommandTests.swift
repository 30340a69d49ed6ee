import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam record --events`: pressure samples as JSON lines, read back.
final class EventsCommandTests: XCTestCase {
    func testEventsFileHasAPressureSampleEverySecondWithItsFactorsAndCounts() throws {
        let folder = try Paths.scratch("events")
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml",
                                      "--duration", "4", "--events", "\(folder)/events.jsonl", "--no-throttle"])
        XCTAssertEqual(result.status, 0, result.error)
        let lines = try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(Set(events.compactMap { $0["event"] as? String }), ["pressure"], "--no-throttle takes no steps")
        XCTAssertGreaterThanOrEqual(events.count, 3, "about one a second")
        let times = events.compactMap { $0["time"] as? Double }
        XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $1 - $0 > 0.5 && $1 - $0 < 2 }, "\(times)")
        let levels = Set(["nominal", "fair", "serious", "critical", "shutdown"])
        XCTAssertTrue(events.allSatisfy { levels.contains($0["level"] as? String ?? "") })
        XCTAssertTrue(events.allSatisfy { ($0["factors"] as? [String: Double])?["cpu"] != nil }, "process CPU is always a factor")
        let pictures = events.compactMap { $0["pictures"] as? Int }
        XCTAssertEqual(pictures, pictures.sorted(), "counts are totals")
        let dropped = events.compactMap { $0["dropped"] as? Int }
        XCTAssertEqual(dropped, dropped.sorted(), "a total too: pictures waiting for the encoder are not dropped")
        XCTAssertGreaterThan(pictures.last ?? 0, 60)
        XCTAssertEqual(events.compactMap { $0["step"] as? Int }.max(), 0)
    }
}
