@testable import CaptureModel
import Foundation
import XCTest

/// The parts of a long recording: the values people write, and which parts a ring recording keeps.
final class SegmentingTests: XCTestCase {
    func testTimesAndSizesAsPeopleWriteThem() throws {
        XCTAssertEqual(Segmenting.duration("10m"), .seconds(600))
        XCTAssertEqual(Segmenting.duration("1.5h"), .seconds(5400))
        XCTAssertEqual(Segmenting.duration("90"), .seconds(90), "a bare number is seconds")
        XCTAssertNil(Segmenting.duration("-2s"))
        XCTAssertNil(Segmenting.duration("nan"))
        XCTAssertEqual(Segmenting.bytes("2GB"), 2 << 30)
        XCTAssertEqual(Segmenting.bytes("700 MiB"), 700 << 20)
        XCTAssertNil(Segmenting.bytes("10m"), "ten minutes, not ten megabytes")
        XCTAssertNil(Segmenting.bytes("1e30GB"))

        XCTAssertEqual(try Segmenting.parse(segment: "10m"), Segmenting(time: .seconds(600)))
        XCTAssertEqual(try Segmenting.parse(segment: "2GB"), Segmenting(bytes: 2 << 30))
        XCTAssertThrowsError(try Segmenting.parse(segment: "0.5s"))
        XCTAssertThrowsError(try Segmenting.parse(segment: "2d"), "longer than a day")
        XCTAssertThrowsError(try Segmenting.parse(segment: "100KB"))

        XCTAssertEqual(try Segmenting.parse(keep: "48"), .count(48))
        XCTAssertEqual(try Segmenting.parse(keep: "12h"), .age(.seconds(43_200)))
        XCTAssertEqual(try Segmenting.parse(keep: "7d"), .age(.seconds(604_800)))
        XCTAssertEqual(try Segmenting.parse(keep: "20GB"), .bytes(20 << 30))
        XCTAssertThrowsError(try Segmenting.parse(keep: "0"))
        XCTAssertThrowsError(try Segmenting.parse(keep: "many")) { error in
            XCTAssertEqual("\(error)", "keep is a count of parts (48), an age (12h, 7d) or a size (20GB), not 'many'")
        }
    }

    func testKeepLetsGoOfTheOldestParts() {
        let now = Date(timeIntervalSince1970: 10_000)
        let parts = (1...5).map { Segmenting.Part(path: "p\($0)", bytes: 100, ended: now.addingTimeInterval(Double($0 - 5) * 600)) }
        let paths = { (keep: Segmenting.Keep, current: Int64?) in
            Segmenting(time: .seconds(600), keep: keep).partsToDelete(parts, current: current, now: now).map(\.path)
        }
        XCTAssertEqual(paths(.count(2), 50), ["p1", "p2", "p3", "p4"], "the part being written is one of the two")
        XCTAssertEqual(paths(.count(2), nil), ["p1", "p2", "p3"], "once the recording has stopped, the newest two ended ones")
        XCTAssertEqual(paths(.count(10), 50), [])
        XCTAssertEqual(paths(.age(.seconds(1000)), 50), ["p1", "p2", "p3"], "ended more than 1000 s ago")
        XCTAssertEqual(paths(.bytes(250), 50), ["p1", "p2", "p3"], "the newest that fit beside the part being written")
        XCTAssertEqual(paths(.bytes(10), 50), ["p1", "p2", "p3", "p4", "p5"], "the part being written stays, whatever its size")
        XCTAssertEqual(Segmenting(time: .seconds(600)).partsToDelete(parts, current: 50, now: now), [], "no keep: every part stays")
    }

    func testPartsAreNamedAfterTheFirst() {
        XCTAssertEqual(MovieFileOutput.numberedPath("/rec/talk.mkv", 2), "/rec/talk-2.mkv")
        XCTAssertEqual(MovieFileOutput.numberedPath("talk.mkv", 12), FileManager.default.currentDirectoryPath + "/talk-12.mkv")
    }
}
