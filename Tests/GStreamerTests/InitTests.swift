import XCTest
@testable import GStreamer

final class InitTests: XCTestCase {
    func testInitializeIsRepeatable() throws {
        try Gst.initialize()
        try Gst.initialize()
    }

    func testVersionIsTheInstalledOne() throws {
        XCTAssertTrue(Gst.version.hasPrefix("GStreamer 1."), Gst.version)
        let (major, minor, _) = Gst.versionNumbers
        XCTAssertEqual(major, 1)
        XCTAssertGreaterThanOrEqual(minor, 22)
        XCTAssertTrue(Gst.version.contains("\(major).\(minor)"), Gst.version)
    }

    func testHasElement() {
        for factory in ["videotestsrc", "audiotestsrc", "compositor", "audiomixer", "matroskamux", "appsink", "x264enc", "level"] {
            XCTAssertTrue(Gst.hasElement(factory), factory)
        }
        XCTAssertFalse(Gst.hasElement("pipcam-no-such-element"))
    }

    func testMissingFactoryIsAnErrorWithAHint() {
        XCTAssertThrowsError(try Element.make("pipcam-no-such-element", name: "nothing")) { error in
            XCTAssertEqual(error as? GStreamerError, .missingElement(factory: "pipcam-no-such-element"))
            let text = "\(error)"
            XCTAssertTrue(text.contains("'pipcam-no-such-element' is not installed"), text)
            XCTAssertTrue(text.contains("gst-inspect-1.0 pipcam-no-such-element"), text)
        }
    }

    func testElementKeepsItsNameAndFactory() throws {
        let source = try Element.make("videotestsrc", name: "camera0")
        XCTAssertEqual(source.name, "camera0")
        XCTAssertEqual(source.factoryName, "videotestsrc")
        XCTAssertEqual(source.typeName, "GstVideoTestSrc")
        XCTAssertEqual(source.referenceCount, 1, "a new element belongs to its wrapper alone")
    }
}
