import Locking
import XCTest
@testable import GStreamer

final class BinTests: XCTestCase {
    func testAddAndLinkMany() async throws {
        let pipeline = try Pipeline(name: "chain")
        let source = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": 3])
        let convert = try Element.make("videoconvert", name: "convert")
        let scale = try Element.make("videoscale", name: "scale")
        let queue = try Element.make("queue", name: "queue")
        let sink = try Element.make("fakesink", name: "sink")
        try pipeline.add(source, convert, scale, queue, sink)
        try pipeline.link(source, convert, scale, queue, sink)

        XCTAssertEqual(Set(pipeline.allElements.map(\.name)), ["camera0", "convert", "scale", "queue", "sink"])
        XCTAssertEqual(try source.staticPad("src").peer?.parentElement?.name, "convert")
        XCTAssertEqual(try sink.staticPad("sink").peer?.parentElement?.name, "queue")
        try await playToEndOfStream(pipeline)
    }

    func testAddChain() async throws {
        let pipeline = try Pipeline(name: "chain")
        try pipeline.addChain([
            try Element.make("audiotestsrc", name: "mic", properties: ["num-buffers": 3]),
            try Element.make("audioconvert", name: "convert"),
            try Element.make("fakesink", name: "sink"),
        ])
        XCTAssertTrue(try XCTUnwrap(pipeline.element(named: "convert")).staticPad("sink").isLinked)
        try await playToEndOfStream(pipeline)
    }

    func testFindingElementsByNameGivesTheirWrapperType() throws {
        let pipeline = try Pipeline(name: "outer")
        let inner = try Bin(name: "inner")
        try inner.add(try AppSink(name: "frames"))
        try pipeline.add(inner)
        XCTAssertTrue(pipeline.element(named: "inner") is Bin)
        XCTAssertTrue(pipeline.element(named: "frames") is AppSink, "search is recursive")
        XCTAssertEqual(pipeline.element(named: "frames")?.path, "/GstPipeline:outer/GstBin:inner/GstAppSink:frames")
        XCTAssertNil(pipeline.element(named: "nobody"))
    }

    func testDuplicateNameIsRefused() throws {
        let pipeline = try Pipeline(name: "p")
        try pipeline.add(try Element.make("queue", name: "q"))
        XCTAssertThrowsError(try pipeline.add(try Element.make("queue", name: "q"))) { error in
            XCTAssertEqual(error as? GStreamerError, .addFailed(element: "q", bin: "p"))
        }
    }

    func testElementWithAParentIsRefused() throws {
        let first = try Pipeline(name: "first"), second = try Pipeline(name: "second")
        let queue = try Element.make("queue", name: "q")
        try first.add(queue)
        XCTAssertThrowsError(try second.add(queue)) { error in
            XCTAssertEqual(error as? GStreamerError, .addFailed(element: "q", bin: "second"))
        }
        first.remove(queue)
        try second.add(queue)
        XCTAssertEqual(queue.path, "/GstPipeline:second/GstQueue:q")
    }

    // MARK: linking through caps

    func testLinkThroughACapsFilter() async throws {
        let pipeline = try Pipeline(name: "filtered")
        let source = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": 2])
        let convert = try Element.make("videoconvert", name: "convert")
        let sink = try AppSink(name: "frames")
        try pipeline.add(source, convert, sink)
        try source.link(convert)
        try convert.link(sink, filter: try Caps("video/x-raw, format=RGB, width=32, height=24"))
        let caps = Locked<[String]>([])
        sink.onSample { sample in caps.withValue { $0.append(sample.caps?.description ?? "none") } }
        try await playToEndOfStream(pipeline)
        XCTAssertEqual(caps.value.count, 2)
        let negotiated = try Caps(try XCTUnwrap(caps.value.first))
        XCTAssertEqual(negotiated.videoInfo?.format, "RGB")
        XCTAssertEqual(negotiated.videoInfo?.width, 32)
        XCTAssertEqual(negotiated.videoInfo?.height, 24)
    }

    func testLinkThroughACapsFilterWithNoCommonFormat() throws {
        let pipeline = try Pipeline(name: "p")
        let source = try Element.make("videotestsrc", name: "camera0")
        let sink = try Element.make("fakesink", name: "sink")
        try pipeline.add(source, sink)
        XCTAssertThrowsError(try source.link(sink, filter: try Caps("audio/x-raw"))) { error in
            guard case .linkFailed(let from, let fromPad, let to, let toPad, let reason) = error as? GStreamerError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([from, fromPad, to, toPad], ["camera0", "src", "sink", "sink"])
            XCTAssertTrue(reason.hasPrefix("no common format"), reason)
        }
        XCTAssertEqual(pipeline.allElements.count, 2, "a failed filtered link leaves no caps filter behind")
    }

    // MARK: link errors

    func testLinkErrorNamesBothElementsAndPads() throws {
        let pipeline = try Pipeline(name: "p")
        let microphone = try Element.make("audiotestsrc", name: "mic")
        let convert = try Element.make("videoconvert", name: "convert")
        try pipeline.add(microphone, convert)
        XCTAssertThrowsError(try microphone.link(convert)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("cannot link 'mic':src to 'convert':sink: no common format (audio/x-raw"), text)
            XCTAssertTrue(text.contains("vs video/x-raw"), text)
        }
    }

    func testLinkErrorOfElementsOutsideAnyBin() throws {
        let microphone = try Element.make("audiotestsrc", name: "mic")
        let convert = try Element.make("videoconvert", name: "convert")
        XCTAssertThrowsError(try microphone.link(convert)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("cannot link 'mic':src to 'convert':sink: no common format"), text)
        }
        // Elements outside any bin can link when their formats agree.
        try microphone.link(try Element.make("audioconvert"))
    }

    func testLinkErrorOfElementsInDifferentPipelines() throws {
        let first = try Pipeline(name: "first"), second = try Pipeline(name: "second")
        let source = try Element.make("videotestsrc", name: "camera0")
        let sink = try Element.make("fakesink", name: "sink")
        try first.add(source)
        try second.add(sink)
        XCTAssertThrowsError(try source.link(sink)) { error in
            XCTAssertEqual(error as? GStreamerError, .linkFailed(
                source: "camera0", sourcePad: "src", sink: "sink", sinkPad: "sink",
                reason: "the elements are not in the same bin"))
        }
        XCTAssertThrowsError(try source.link(sink, filter: try Caps("video/x-raw"))) { error in
            XCTAssertTrue("\(error)".hasSuffix(": the elements are not in the same bin"), "\(error)")
        }
    }

    func testElementsInSubBinsOfOnePipelineLinkThroughGhostPads() async throws {
        let pipeline = try Pipeline(name: "p")
        let cameraBin = try Bin(name: "camera"), outputBin = try Bin(name: "output")
        let source = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": 2])
        let sink = try Element.make("fakesink", name: "sink")
        try cameraBin.add(source)
        try outputBin.add(sink)
        try pipeline.add(cameraBin, outputBin)
        try source.link(sink)
        XCTAssertEqual(cameraBin.pads.map(\.typeName), ["GstGhostPad"])
        try await playToEndOfStream(pipeline)
    }

    func testLinkErrorForAPadThatDoesNotExist() throws {
        let pipeline = try Pipeline(name: "p")
        let source = try Element.make("videotestsrc", name: "camera0")
        let sink = try Element.make("fakesink", name: "sink")
        try pipeline.add(source, sink)
        XCTAssertThrowsError(try source.link(sink, sourcePad: "video")) { error in
            XCTAssertEqual("\(error)", "cannot link 'camera0':video to 'sink':sink: 'camera0' has no pad 'video'")
        }
        XCTAssertThrowsError(try source.link(sink, sinkPad: "audio")) { error in
            XCTAssertEqual("\(error)", "cannot link 'camera0':src to 'sink':audio: 'sink' has no pad 'audio'")
        }
        try source.link(sink, sourcePad: "src", sinkPad: "sink")
    }

    func testLinkErrorWhenTheSourcePadIsTaken() throws {
        let pipeline = try Pipeline(name: "p")
        let source = try Element.make("videotestsrc", name: "camera0")
        let first = try Element.make("fakesink", name: "first"), second = try Element.make("fakesink", name: "second")
        try pipeline.add(source, first, second)
        try source.link(first)
        XCTAssertThrowsError(try source.link(second)) { error in
            XCTAssertEqual("\(error)", "cannot link 'camera0':src to 'second':sink: 'camera0' has no free source pad")
        }
    }
}
