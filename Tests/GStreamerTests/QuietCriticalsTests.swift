import CGStreamer
import XCTest
@testable import GStreamer

/// Tests run with G_DEBUG=fatal-criticals: a critical that got through would abort the test process.
final class QuietCriticalsTests: XCTestCase {
    func testCriticalsOfTheDomainAreDroppedOnlyWhileTheWorkRuns() {
        Gst.ensureInitialized()
        let fatalBefore = g_log_set_always_fatal(G_LOG_LEVEL_ERROR)
        _ = g_log_set_always_fatal(fatalBefore)
        let name: String? = QuietCriticals.run(droppingFrom: ["GStreamer-Video"]) {
            // What PipeWire's provider does for a format without a name: a critical in GStreamer-Video.
            gst_video_format_to_string(GST_VIDEO_FORMAT_UNKNOWN).map { String(cString: $0) }
        }
        XCTAssertNil(name)
        let fatalAfter = g_log_set_always_fatal(G_LOG_LEVEL_ERROR)
        _ = g_log_set_always_fatal(fatalAfter)
        XCTAssertEqual(fatalAfter.rawValue, fatalBefore.rawValue, "criticals are as fatal as before once the work is done")
    }
}
