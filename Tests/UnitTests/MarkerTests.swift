@testable import CaptureModel
@testable import LinuxIO
import Foundation
import PipcamTestSupport
import XCTest

/// Markers as values and on the disk: their titles, the journal kept beside a file being written, and
/// the MP4 chapter list.
final class MarkerTests: XCTestCase {
    func testATitleIsPlainTextOnOneLineAndNoneIsNumbered() throws {
        XCTAssertEqual(try Marker.title(nil, number: 3), "Marker 3")
        XCTAssertEqual(try Marker.title("   ", number: 1), "Marker 1")
        XCTAssertEqual(try Marker.title(" Question\nfrom the\u{1B}[31m floor ", number: 1), "Question from the [31m floor")
        XCTAssertEqual(try Marker.title("<b>Pause</b> & go", number: 1), "<b>Pause</b> & go", "kept as written: it is never drawn as markup")
        XCTAssertEqual(try Marker.title("a\u{2028}b\u{202E}c", number: 1), "a b c", "no line separator, no text turned right to left")
        // Sixty characters, each a letter and two accents: over what MP4's chapter list holds.
        XCTAssertThrowsError(try Marker.title(String(repeating: "e\u{301}\u{301}", count: 60), number: 1)) { error in
            XCTAssertEqual("\(error)", "a marker's title is at most 240 bytes of UTF-8 (this one has 300)")
        }
        XCTAssertThrowsError(try Marker.title(String(repeating: "x", count: Marker.longestTitle + 1), number: 1)) { error in
            XCTAssertEqual("\(error)", "a marker's title is at most 60 characters (this one has 61)")
        }
    }

    func testTheJournalKeepsEachMarkerAndSkipsALineCutOffByACrash() throws {
        let folder = try Paths.scratch("journal")
        let recording = "\(folder)/talk.mkv"
        XCTAssertEqual(MarkerJournal.path(for: recording), "\(folder)/.talk.mkv.markers")
        try MarkerJournal.append(Marker(title: "b", time: .milliseconds(4_500)), for: recording)
        try MarkerJournal.append(Marker(title: "a \"quoted\" é", time: .nanoseconds(2_000_000_001)), for: recording)
        // A crash in the middle of a line.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: MarkerJournal.path(for: recording)))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"title":"c","ti"#.utf8))
        try handle.close()
        XCTAssertEqual(MarkerJournal.read(for: recording), [Marker(title: "a \"quoted\" é", time: .nanoseconds(2_000_000_001)),
                                                            Marker(title: "b", time: .milliseconds(4_500))])
        MarkerJournal.remove(for: recording)
        XCTAssertEqual(MarkerJournal.read(for: recording), [])
    }

    func testTheMP4ChapterListIsNerosVersionOne() {
        let list = [UInt8](MP4Chapters.chapterList([Marker(title: "one", time: .milliseconds(1_500)), Marker(title: "é", time: .zero)]))
        XCTAssertEqual(Array(list.prefix(9)), [1, 0, 0, 0, 0, 0, 0, 0, 2], "version 1, no flags, four reserved bytes, two chapters")
        // 1.5 s in units of 100 ns (15 000 000), then the title's length and bytes.
        XCTAssertEqual(Array(list[9..<21]), [0, 0, 0, 0, 0, 0xE4, 0xE1, 0xC0, 3] + Array("one".utf8))
        XCTAssertEqual(Array(list[21...]), [0, 0, 0, 0, 0, 0, 0, 0, 2, 0xC3, 0xA9])
    }

    func testMarkerPauseAndResumeEventsAreJSONLines() {
        XCTAssertEqual(SessionEvent.marker(Marker(title: "Q & A", time: .milliseconds(2_500))).jsonLine, #"{"event":"marker","time":2.5,"title":"Q & A"}"#)
        XCTAssertEqual(SessionEvent.paused(at: .seconds(3)).jsonLine, #"{"event":"paused","time":3}"#)
        XCTAssertEqual(SessionEvent.resumed(at: .seconds(3), after: .milliseconds(2_750)).jsonLine, #"{"event":"resumed","paused":2.75,"time":3}"#)
    }
}
