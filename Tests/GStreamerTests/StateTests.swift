import XCTest
@testable import GStreamer

final class StateTests: XCTestCase {
    private func testPipeline(live: Bool = false) throws -> Pipeline {
        let pipeline = try Pipeline(name: "p")
        try pipeline.addChain([
            try Element.make("videotestsrc", name: "camera0", properties: ["is-live": live]),
            try Element.make("capsfilter", properties: ["caps": "video/x-raw, width=32, height=24, framerate=30/1"]),
            try Element.make("fakesink", name: "sink", properties: ["sync": true]),
        ])
        return pipeline
    }

    func testStateChangesReturnTypedResults() throws {
        let pipeline = try testPipeline()
        XCTAssertEqual(pipeline.currentState, .null)
        XCTAssertEqual(try pipeline.setState(.ready), .success)
        XCTAssertEqual(pipeline.currentState, .ready)
        XCTAssertEqual(try pipeline.setState(.paused), .async, "a sink prerolls in the background")
        XCTAssertEqual(try pipeline.waitForState(timeout: .seconds(5)), .paused)
        XCTAssertNotEqual(try pipeline.setState(.playing), .noPreroll)
        XCTAssertEqual(try pipeline.waitForState(timeout: .seconds(5)), .playing)
        XCTAssertEqual(try pipeline.setState(.null), .success)
        XCTAssertEqual(pipeline.currentState, .null)
    }

    func testLiveSourceDoesNotPreroll() throws {
        let pipeline = try testPipeline(live: true)
        XCTAssertEqual(try pipeline.setState(.paused), .noPreroll)
        XCTAssertEqual(try pipeline.waitForState(timeout: .seconds(5)), .paused)
        XCTAssertEqual(try pipeline.setState(.null), .success)
    }

    func testReachState() async throws {
        let pipeline = try testPipeline(live: true)
        let state = try await pipeline.reachState(.playing, timeout: .seconds(5))
        XCTAssertEqual(state, .playing)
        XCTAssertEqual(pipeline.currentState, .playing)
        XCTAssertNotNil(pipeline.clockName)
        XCTAssertNotNil(pipeline.runningTime)
        let stopped = try await pipeline.reachState(.null)
        XCTAssertEqual(stopped, .null)
    }

    func testWaitForStateTimesOut() throws {
        let pipeline = try Pipeline(name: "p")
        // An appsrc that is never fed keeps the sink from prerolling.
        try pipeline.addChain([try Element.make("appsrc", name: "feed"), try Element.make("fakesink", name: "sink")])
        XCTAssertEqual(try pipeline.setState(.paused), .async)
        XCTAssertThrowsError(try pipeline.waitForState(timeout: .milliseconds(50))) { error in
            XCTAssertEqual(error as? GStreamerError, .timeout("waiting for 'p' to reach PAUSED"))
        }
        XCTAssertEqual(try pipeline.setState(.null), .success)
    }

    func testFailedStateChangeThrowsAndTheBusSaysWhy() async throws {
        let pipeline = try Pipeline(name: "recorder")
        try pipeline.addChain([
            try Element.make("videotestsrc", name: "camera0"),
            try Element.make("filesink", name: "file", properties: ["location": "/nonexistent-dir/x.mkv"]),
        ])
        let messages = pipeline.bus.messages()
        XCTAssertThrowsError(try pipeline.setState(.paused)) { error in
            XCTAssertEqual(error as? GStreamerError, .stateChangeFailed(element: "recorder", target: "PAUSED"))
        }
        let error = try await waitForMessage(messages, "the file sink's error") { $0.isError }
        XCTAssertEqual(error.sourceName, "file")
        XCTAssertEqual(error.sourcePath, "/GstPipeline:recorder/GstFileSink:file")
        guard case .error(let text, let debug) = error.kind else { return XCTFail("\(error)") }
        XCTAssertTrue(text.contains("/nonexistent-dir/x.mkv"), text)
        XCTAssertTrue(debug?.contains("No such file or directory") == true, debug ?? "no debug text")

        do {
            try await pipeline.reachState(.playing)
            XCTFail("reaching PLAYING should fail")
        } catch let error as GStreamerError {
            guard case .stateChangeFailed = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try pipeline.setState(.null), .success)
    }

    func testFinishEndsARecordingCleanly() async throws {
        let path = temporaryPath("clip.mkv", for: self)
        let pipeline = try Pipeline(name: "recorder")
        let camera = try Element.make("videotestsrc", name: "camera0", properties: ["is-live": true])
        let muxer = try Element.make("matroskamux", name: "muxer")
        let file = try Element.make("filesink", name: "file", properties: ["location": path])
        try pipeline.add(camera, muxer, file)
        try camera.link(muxer, filter: try Caps("video/x-raw, format=I420, width=32, height=24, framerate=30/1"))
        try muxer.link(file)
        let messages = pipeline.bus.messages()
        try await pipeline.reachState(.playing)
        try await waitForMessage(messages, "the recording to start") { $0.stateChange?.new == .playing && $0.sourceName == "recorder" }
        try await pipeline.finish()
        XCTAssertEqual(pipeline.currentState, .null)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, 0)

        // Finishing a stopped pipeline does nothing.
        try await pipeline.finish(timeout: .milliseconds(10))
    }
}
