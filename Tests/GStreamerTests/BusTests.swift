import CGStreamer
import Foundation
import Locking
import XCTest
@testable import GStreamer

final class BusTests: XCTestCase {
    /// A short test stream: `frames` frames of 32×24 video into a fakesink.
    private func shortPipeline(name: String = "p", frames: Int = 3, caps: String = "video/x-raw, width=32, height=24") throws -> Pipeline {
        let pipeline = try Pipeline(name: name)
        try pipeline.addChain([
            try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": frames]),
            try Element.make("capsfilter", name: "filter", properties: ["caps": caps]),
            try Element.make("fakesink", name: "sink"),
        ])
        return pipeline
    }

    func testStateChangesAndEndOfStreamThroughAClosure() async throws {
        let pipeline = try shortPipeline(name: "player")
        let seen = Locked<[Message]>([])
        let ended = Events<Void>()
        let subscription = pipeline.bus.subscribe { message in
            seen.withValue { $0.append(message) }
            if message.isEndOfStream { ended.send(()) }
        }
        try pipeline.setState(.playing)
        try await ended.next("end of stream")
        subscription.cancel()

        let pipelineChanges = seen.value.filter { $0.sourceName == "player" }.compactMap(\.stateChange)
        XCTAssertEqual(pipelineChanges.map { "\($0.old)→\($0.new)" }, ["NULL→READY", "READY→PAUSED", "PAUSED→PLAYING"])
        let sinkChanges = seen.value.filter { $0.sourcePath == "/GstPipeline:player/GstFakeSink:sink" }.compactMap(\.stateChange)
        XCTAssertEqual(sinkChanges.last?.new, .playing)
        XCTAssertTrue(seen.value.contains { if case .streamStart = $0.kind { return true } else { return false } })
        XCTAssertTrue(seen.value.contains { if case .asyncDone = $0.kind { return true } else { return false } })
    }

    func testMessagesStreamAndClosureSeeTheSameEndOfStream() async throws {
        let pipeline = try shortPipeline()
        let messages = pipeline.bus.messages()
        let closureEnded = Events<UInt32>()
        let subscription = pipeline.bus.subscribe { message in
            if message.isEndOfStream { closureEnded.send(message.sequenceNumber) }
        }
        try pipeline.setState(.playing)
        let streamEnd = try await waitForMessage(messages, "end of stream") { $0.isEndOfStream }
        let closureEnd = try await closureEnded.next("end of stream in the closure")
        XCTAssertEqual(streamEnd.sequenceNumber, closureEnd)
        XCTAssertEqual(streamEnd.sourcePath, "/GstPipeline:p")
        subscription.cancel()
    }

    func testStreamingErrorNamesTheSourceElementAndHasDebugText() async throws {
        // Video forced into audio caps cannot be negotiated: videotestsrc stops with an error. The caps
        // are set after linking, or the link itself would be refused.
        let pipeline = try shortPipeline(name: "broken")
        try XCTUnwrap(pipeline.element(named: "filter")).set("caps", "audio/x-raw")
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        let error = try await waitForMessage(messages, "a negotiation error") { $0.isError }
        XCTAssertEqual(error.sourceName, "camera0")
        XCTAssertEqual(error.sourcePath, "/GstPipeline:broken/GstVideoTestSrc:camera0")
        guard case .error(let text, let debug) = error.kind else { return XCTFail("\(error)") }
        XCTAssertFalse(text.isEmpty)
        XCTAssertTrue(debug?.contains("not-negotiated") == true, debug ?? "no debug text")
        // What a source's flow error says in GLib's words, and the flow result it attached.
        XCTAssertEqual(error.errorCode, ErrorCode(domain: ErrorCode.streamDomain, code: Int(GST_STREAM_ERROR_FAILED.rawValue)))
        XCTAssertEqual(error.errorDetails?.int("flow-return"), Int(GST_FLOW_NOT_NEGOTIATED.rawValue))
        XCTAssertEqual(error.stoppedFlow, "not-negotiated")
        XCTAssertTrue(error.description.hasPrefix("/GstPipeline:broken/GstVideoTestSrc:camera0: error("), error.description)
    }

    /// An error read after its poster was taken out of its bin (a network camera's source, removed by
    /// its decodebin as it stops, its error still in the bus) still says where it was posted: inside the
    /// bin, at its path then. Read at the bus's own pace, it came from nowhere, and a failure the
    /// recording had let go ended it. The reader is held here until the poster is out.
    func testAnErrorReadAfterItsPosterWasTakenOutSaysWhereItWasPosted() async throws {
        let pipeline = try Pipeline(name: "p")
        let camera = try Bin(name: "camera")
        let source = try Element.make("identity", name: "source")
        try camera.add(source)
        try pipeline.add(camera)
        let reading = DispatchSemaphore(value: 0)
        let errors = Events<Message>()
        let subscription = pipeline.bus.subscribe { message in
            if message.application?.name == "hold" { reading.wait() }
            if message.isError { errors.send(message) }
        }
        try pipeline.bus.post(applicationMessage: "hold")
        let error = g_error_new_literal(gst_resource_error_quark(), Int32(GST_RESOURCE_ERROR_READ.rawValue), "the camera went away")
        XCTAssertNotEqual(gst_element_post_message(source.element, gst_message_new_error(source.raw, error, "taken out")), 0)
        g_error_free(error)
        camera.remove(source)
        reading.signal()
        let message = try await errors.next("the error")
        subscription.cancel()
        XCTAssertTrue(message.isFrom(source))
        XCTAssertTrue(message.isFrom(within: camera), "posted inside the camera's bin")
        XCTAssertTrue(message.isFrom(within: pipeline))
        XCTAssertEqual(message.sourcePath, "/GstPipeline:p/GstBin:camera/GstIdentity:source")
    }

    /// A sink that syncs to the clock behind an element that is too slow drops late frames, reports
    /// each drop as QoS, and warns once nothing has been shown for a second.
    func testLateFramesPostQoSAndAWarning() async throws {
        let pipeline = try Pipeline(name: "slow")
        try pipeline.addChain([
            try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": 40]),
            try Element.make("capsfilter", properties: ["caps": "video/x-raw, width=16, height=16, framerate=20/1"]),
            try Element.make("identity", name: "slow-filter", properties: ["sleep-time": UInt32(80_000)]),
            try Element.make("fakesink", name: "sink", properties: ["sync": true, "qos": true, "max-lateness": Int64(5_000_000)]),
        ])
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        let qos = try await waitForMessage(messages, "a QoS message") { $0.isQoS }
        XCTAssertEqual(qos.sourceName, "sink")
        guard case .qos(_, let runningTime, _, let dropped) = qos.kind else { return XCTFail("\(qos)") }
        XCTAssertNotNil(runningTime)
        XCTAssertGreaterThan(dropped, 0)

        let warning = try await waitForMessage(messages, "a warning about dropped frames") { $0.isWarning }
        XCTAssertEqual(warning.sourceName, "sink")
        guard case .warning(let text, let debug) = warning.kind else { return XCTFail("\(warning)") }
        XCTAssertTrue(text.contains("buffers are being dropped"), text)
        XCTAssertNotNil(debug)
        try pipeline.setState(.null)
    }

    func testLevelPostsElementMessages() async throws {
        let pipeline = try Pipeline(name: "meter")
        try pipeline.addChain([
            try Element.make("audiotestsrc", name: "tone", properties: ["num-buffers": 5, "samplesperbuffer": 4800, "volume": 0.5]),
            try Element.make("capsfilter", properties: ["caps": "audio/x-raw, format=S16LE, rate=48000, channels=1"]),
            try Element.make("level", name: "level", properties: ["post-messages": true, "interval": UInt64(100_000_000)]),
            try Element.make("fakesink", name: "sink"),
        ])
        let levels = Locked<[Structure]>([])
        let ended = Events<Void>()
        let subscription = pipeline.bus.subscribe { message in
            if let structure = message.element, message.sourceName == "level" { levels.withValue { $0.append(structure) } }
            if message.isEndOfStream { ended.send(()) }
        }
        try pipeline.setState(.playing)
        try await ended.next("end of stream")
        subscription.cancel()

        XCTAssertGreaterThanOrEqual(levels.value.count, 5, "one per 100 ms of sound")
        let level = try XCTUnwrap(levels.value.first)
        XCTAssertEqual(level.name, "level")
        // A sine of amplitude 0.5 has an RMS of 0.5/√2, about -9 dB.
        guard case .list(let rms) = level["rms"], case .value(let channel) = rms.first, let decibels = channel.doubleValue else {
            return XCTFail("rms should be a list of doubles: \(level)")
        }
        XCTAssertEqual(rms.count, 1)
        XCTAssertEqual(decibels, 20 * log10(0.5 / 2.0.squareRoot()), accuracy: 0.2)
        XCTAssertNotNil(level["timestamp"])
    }

    // MARK: delivery guarantees

    func testNoMessageIsDroppedOrReordered() async throws {
        let pipeline = try Pipeline(name: "busy")
        let count = 10_000
        let closureIndices = Locked<[Int]>([])
        let closureDone = Events<Void>()
        let subscription = pipeline.bus.subscribe { message in
            guard let tick = message.application, tick.name == "pipcam-tick", let index = tick.int("index") else { return }
            closureIndices.withValue { $0.append(index) }
            if index == count - 1 { closureDone.send(()) }
        }
        let messages = pipeline.bus.messages()
        let bus = pipeline.bus
        let poster = Thread {
            for index in 0..<count { _ = try? bus.post(applicationMessage: "pipcam-tick", fields: ["index": index]) }
        }
        poster.start()

        var streamIndices: [Int] = []
        for await message in messages {
            guard let tick = message.application, tick.name == "pipcam-tick", let index = tick.int("index") else { continue }
            streamIndices.append(index)
            if index == count - 1 { break }
        }
        try await closureDone.next("the last message in the closure", timeout: .seconds(10))
        subscription.cancel()
        XCTAssertEqual(streamIndices, Array(0..<count))
        XCTAssertEqual(closureIndices.value, Array(0..<count))
    }

    func testMessagesPostedBeforeTheFirstSubscriberAreKept() async throws {
        let pipeline = try Pipeline(name: "p")
        for index in 0..<3 { try pipeline.bus.post(applicationMessage: "early", fields: ["index": index]) }
        let messages = pipeline.bus.messages()
        var received: [Int] = []
        for await message in messages {
            if let early = message.application, let index = early.int("index") { received.append(index) }
            if received.count == 3 { break }
        }
        XCTAssertEqual(received, [0, 1, 2])
    }

    func testCancelledSubscriptionGetsNothingMore() async throws {
        let pipeline = try Pipeline(name: "p")
        let cancelledGot = Locked<[String]>([])
        let cancelled = pipeline.bus.subscribe { message in
            if let structure = message.application { cancelledGot.withValue { $0.append(structure.name) } }
        }
        let messages = pipeline.bus.messages()
        try pipeline.bus.post(applicationMessage: "before")
        try await waitForMessage(messages, "the first marker") { $0.application?.name == "before" }
        cancelled.cancel()
        try pipeline.bus.post(applicationMessage: "after")
        try await waitForMessage(messages, "the second marker") { $0.application?.name == "after" }
        XCTAssertEqual(cancelledGot.value, ["before"])
    }

    func testReaderThreadEndsWithItsStoppedPipeline() async throws {
        let reader = Locked<(id: Int, name: String)?>(nil)
        do {
            let pipeline = try shortPipeline()
            let subscription = pipeline.bus.subscribe { _ in
                reader.withValue { $0 = $0 ?? (currentThreadID(), currentThreadName()) }
            }
            try await playToEndOfStream(pipeline)
            // NULL flushes the bus, which must not swallow the reader's wake-up.
            try pipeline.setState(.null)
            subscription.cancel()
        }
        let thread = try XCTUnwrap(reader.value)
        XCTAssertEqual(thread.name, "gst-bus")
        let ended = await eventually { !threadIsRunning(thread.id) }
        XCTAssertTrue(ended, "the bus reader thread outlived its pipeline")
    }

    func testApplicationMessageFieldsAndNames() async throws {
        let pipeline = try Pipeline(name: "p")
        let messages = pipeline.bus.messages()
        try pipeline.bus.post(applicationMessage: "pipcam-marker", fields: ["label": "take 1", "fps": Fraction(30, 1), "ok": true])
        let marker = try await waitForMessage(messages, "the marker") { $0.application != nil }
        let structure = try XCTUnwrap(marker.application)
        XCTAssertEqual(structure.name, "pipcam-marker")
        XCTAssertEqual(structure.string("label"), "take 1")
        XCTAssertEqual(structure["fps"], .value(.fraction(30, 1)))
        XCTAssertEqual(structure["ok"], .value(.bool(true)))
        XCTAssertNil(marker.sourceName)
        XCTAssertThrowsError(try pipeline.bus.post(applicationMessage: "not a name!")) { error in
            XCTAssertEqual(error as? GStreamerError, .invalidStructureName("not a name!"))
        }
    }
}
