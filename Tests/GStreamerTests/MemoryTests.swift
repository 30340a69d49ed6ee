import Locking
import XCTest
@testable import GStreamer

/// Every GStreamer object a wrapper creates must be freed once the wrappers are gone.
final class MemoryTests: XCTestCase {
    /// Counts finalized objects and reports when the count reaches a target.
    private final class FinalizeCounter: Sendable {
        let count = Locked(0)
        let reached = Events<Int>()
        let target: Int
        init(target: Int) { self.target = target }

        func watch(_ object: Object) {
            object.onFinalize { [self] in
                let now = count.withValue { value -> Int in value += 1; return value }
                if now == target { reached.send(now) }
            }
        }
    }

    /// Plays a 3-frame pipeline to its end with a bus subscriber and an appsink consumer, then drops it.
    private func runOnce(_ index: Int, counter: FinalizeCounter, readers: Locked<Set<Int>>) async throws {
        let pipeline = try Pipeline(name: "run\(index)")
        let source = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": 3])
        let filter = try Element.make("capsfilter", name: "filter", properties: ["caps": "video/x-raw, width=16, height=16"])
        let sink = try AppSink(name: "frames")
        for object in [pipeline, source, filter, sink] as [Object] { counter.watch(object) }
        try pipeline.addChain([source, filter, sink])
        let frames = Locked(0)
        sink.onSample { _ in frames.withValue { $0 += 1 } }
        let subscription = pipeline.bus.subscribe { _ in
            let reader = currentThreadID()
            readers.withValue { $0.insert(reader) }
        }
        try await playToEndOfStream(pipeline)
        try pipeline.setState(.null)
        subscription.cancel()
        XCTAssertEqual(frames.value, 3)
    }

    func testTwoHundredPipelinesAreFreed() async throws {
        let runs = 200
        // One warm-up run so GStreamer's own thread pools exist before threads are counted.
        try await runOnce(-1, counter: FinalizeCounter(target: 4), readers: Locked([]))
        let threadsBefore = threadCount()

        let counter = FinalizeCounter(target: runs * 4)
        let readers = Locked<Set<Int>>([])
        for index in 0..<runs { try await runOnce(index, counter: counter, readers: readers) }
        try await counter.reached.next("all \(runs * 4) objects to be finalized", timeout: .seconds(5))
        XCTAssertEqual(counter.count.value, runs * 4, "every pipeline and element was finalized, once")

        XCTAssertEqual(readers.value.count, runs, "each pipeline had its own bus reader")
        let readersEnded = await eventually { !readers.value.contains(where: threadIsRunning) }
        XCTAssertTrue(readersEnded, "\(readers.value.filter(threadIsRunning).count) bus reader threads left running")
        let settled = await eventually { threadCount() <= threadsBefore + 4 }
        XCTAssertTrue(settled, "threads: \(threadsBefore) before, \(threadCount()) after \(runs) pipelines")
    }

    func testPipelineReleasedWhilePlayingIsStoppedAndFreed() async throws {
        let counter = FinalizeCounter(target: 3)
        do {
            let pipeline = try Pipeline(name: "abandoned")
            let source = try Element.make("videotestsrc", name: "camera0", properties: ["is-live": true])
            let sink = try AppSink(name: "frames", caps: try Caps("video/x-raw, width=16, height=16"))
            for object in [pipeline, source, sink] as [Object] { counter.watch(object) }
            try pipeline.addChain([source, sink])
            let frames = sink.samples()
            try await pipeline.reachState(.playing)
            let frame = try await frames.first(timeout: .seconds(5)) { _ in true }
            XCTAssertNotNil(frame, "the pipeline was running")
        }
        try await counter.reached.next("the playing pipeline and its elements to be finalized")
    }

    func testElementOutlivingItsPipelineIsOwnedByItsWrapperAlone() async throws {
        let source = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": 1])
        let pipelineGone = Events<Void>()
        do {
            let pipeline = try Pipeline(name: "p")
            pipeline.onFinalize { pipelineGone.send(()) }
            try pipeline.addChain([source, try Element.make("fakesink")])
            XCTAssertEqual(source.referenceCount, 2, "the wrapper's reference and the pipeline's")
            try await playToEndOfStream(pipeline)
        }
        try await pipelineGone.next("the pipeline to be finalized")
        // A bus message from the source (each holds it) may still be on its way out of the bus's stream.
        let alone = await eventually { source.referenceCount == 1 }
        XCTAssertTrue(alone, "only the wrapper's reference is left, not \(source.referenceCount)")
        XCTAssertNil(try source.staticPad("src").peer, "unlinked from the freed sink")
    }

    func testWrappersFoundByNameDoNotKeepAnExtraReference() throws {
        let pipeline = try Pipeline(name: "p")
        let queue = try Element.make("queue", name: "q")
        try pipeline.add(queue)
        for _ in 0..<10 {
            _ = pipeline.element(named: "q")
            _ = pipeline.allElements
            _ = queue.pads
            _ = try queue.staticPad("src")
        }
        XCTAssertEqual(queue.referenceCount, 2)
        XCTAssertEqual(try queue.staticPad("src").referenceCount, 2, "the element's reference and this wrapper's")
    }
}
