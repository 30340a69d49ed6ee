import XCTest
@testable import GStreamer

final class DotGraphTests: XCTestCase {
    func testDotGraphNamesTheElements() throws {
        let pipeline = try Pipeline(name: "recorder")
        try pipeline.addChain([
            try Element.make("videotestsrc", name: "camera0"),
            try Element.make("videoconvert", name: "convert"),
            try Element.make("fakesink", name: "output"),
        ])
        let dot = pipeline.dotGraph()
        XCTAssertTrue(dot.hasPrefix("digraph"), String(dot.prefix(40)))
        for name in ["recorder", "camera0", "convert", "output"] {
            XCTAssertTrue(dot.contains(name), name)
        }
        let path = temporaryPath("recorder.dot", for: self)
        try pipeline.writeDotGraph(to: path)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("digraph"))
        XCTAssertTrue(written.contains("camera0"))
        XCTAssertThrowsError(try pipeline.writeDotGraph(to: "/nonexistent-dir/recorder.dot"))
    }
}
