@testable import CaptureGraph
import CaptureModel
import PipcamTestSupport
import XCTest

/// Labels are plain text: what a text overlay is given is markup that draws exactly the label.
final class DrawnTextTests: XCTestCase {
    func testMarkupCharactersAreEscapedAndControlCharactersReplaced() {
        XCTAssertEqual(DrawnText.markup("Q&A <b>\"it's\"</b>"), "Q&amp;A &lt;b&gt;&quot;it&apos;s&quot;&lt;/b&gt;")
        XCTAssertEqual(DrawnText.markup("two\nlines\u{1B}[31m\u{7}"), "two\nlines\u{FFFD}[31m\u{FFFD}")
        XCTAssertEqual(DrawnText.markup("Café 🎥"), "Café 🎥")
    }

    func testACamerasLabelReachesItsClockEscaped() throws {
        let labelled = CaptureDevice.testPatternCamera(id: "qa", pattern: "smpte", label: "Q&A <session")
        let plan = try Fixtures.configuration(path: "/tmp/x.mkv", cameras: [labelled, Fixtures.side], microphones: []).graphPlan()
        let clock = try XCTUnwrap(plan.nodes.first { $0.factory == .timeoverlay && $0.name.hasPrefix("cam0") })
        XCTAssertEqual(clock.properties.first { $0.0 == "text" }?.1, .string("Q&amp;A &lt;session"))
    }
}
