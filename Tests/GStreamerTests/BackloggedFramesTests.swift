import Dispatch
import Locking
import XCTest
@testable import GStreamer

/// Frames made while a queue was backed up are freed once done with, so that the pool they came from
/// does not keep a backlog's worth of frames to the end.
final class BackloggedFramesTests: XCTestCase {
    /// A live source at 100 fps into a queue whose consumer stalls until 20 frames wait: the source's pool
    /// must make 20 frames. Once the consumer is back and keeps up, the pool hands out the same few
    /// frames again; without `freeBackloggedFrames` it would go round all 20 (its queue is first in,
    /// first out).
    func testAPoolGoesBackToAFewFramesAfterABacklog() async throws {
        let pipeline = try Pipeline(name: "backlog")
        let source = try Element.make("videotestsrc", properties: ["is-live": true, "num-buffers": 160, "pattern": "black"])
        let caps = try Element.make("capsfilter", properties: ["caps": try Caps("video/x-raw,format=I420,width=320,height=240,framerate=100/1")])
        let queue = try Element.make("queue", properties: ["max-size-buffers": 40, "max-size-bytes": 0, "max-size-time": 0])
        let sink = try Element.make("fakesink", properties: ["sync": false])
        try pipeline.addChain([source, caps, queue, sink])
        try queue.staticPad("sink").freeBackloggedFrames(beyond: 2)

        let stalled = DispatchSemaphore(value: 0)
        let frames = Locked<[UInt]>([])  // each frame by its address
        try sink.staticPad("sink").addRawBufferProbe { _, buffer in
            let first = frames.withValue { $0.append(UInt(bitPattern: buffer)); return $0.count == 1 }
            if first { stalled.wait() }
            return .pass
        }
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        let backedUp = await eventually { ((try? queue.property("current-level-buffers"))?.intValue ?? 0) >= 20 }
        stalled.signal()
        XCTAssertTrue(backedUp, "the queue never held 20 frames")
        try await waitForMessage(messages, "end of stream") { $0.isEndOfStream }
        try pipeline.setState(.null)

        let seen = frames.value
        XCTAssertEqual(seen.count, 160)
        XCTAssertGreaterThanOrEqual(Set(seen.prefix(40)).count, 20, "the stall made the pool grow")
        let steady = Set(seen.suffix(60))
        print("frames the pool handed out: \(Set(seen.prefix(40)).count) in the backlog, \(steady.count) after it")
        XCTAssertLessThanOrEqual(steady.count, 8, "after the backlog, the pool still hands out \(steady.count) frames")
    }
}
