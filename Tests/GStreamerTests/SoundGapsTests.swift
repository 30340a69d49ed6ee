import Dispatch
import Locking
import XCTest
@testable import GStreamer

/// Sound that a leaky queue lets go while what takes it stalls is counted lost; the gaps of a switch
/// turned off are not.
final class SoundGapsTests: XCTestCase {
    private static let tenMilliseconds = Duration.milliseconds(10)

    /// 100 buffers of 10 ms into a leaky queue of 10 whose consumer stalls on the first until all were
    /// sent: the queue lets some 89 go. The count is what skips between the buffers that came out. The
    /// source waits with its second buffer until the first is out (else, on a busy machine, the queue
    /// may let the first 90 go before any comes out: nothing would skip after the first).
    func testSoundALeakyQueueLetsGoIsCountedLost() async throws {
        let pipeline = try Pipeline(name: "leak")
        let (_, queue, sink) = try Self.chain(in: pipeline, properties: ["leaky": "downstream", "max-size-buffers": 10, "max-size-bytes": 0, "max-size-time": 0])
        let gaps = SoundGaps(at: try queue.staticPad("src"))
        let sent = Locked(0)
        let firstOut = DispatchSemaphore(value: 0), stalled = DispatchSemaphore(value: 0)
        try queue.staticPad("sink").addBufferProbe { _ in
            if sent.withValue({ $0 += 1; return $0 }) == 2 { _ = firstOut.wait(timeout: .now() + 5) }
            return .pass
        }
        let times = Locked<[Duration]>([])
        try sink.staticPad("sink").addBufferProbe { time in
            let first = times.withValue { $0.append(time ?? .zero); return $0.count == 1 }
            if first {
                firstOut.signal()
                stalled.wait()
            }
            return .pass
        }
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        let allSent = await eventually { sent.value == 100 }
        stalled.signal()
        XCTAssertTrue(allSent, "the source sent \(sent.value) buffers of 100")
        try await waitForMessage(messages, "end of stream") { $0.isEndOfStream }
        try pipeline.setState(.null)

        let out = times.value
        let skipped = zip(out, out.dropFirst()).reduce(Duration.zero) { $0 + max(.zero, $1.1 - $1.0 - Self.tenMilliseconds) }
        print("buffers out of the queue: \(out.count); skipped \(skipped), counted lost \(gaps.lost)")
        XCTAssertGreaterThanOrEqual(skipped, .milliseconds(850), "the queue let too little go to tell")
        XCTAssertEqual(gaps.lost, skipped)
    }

    /// A switch turned off for 30 of 100 buffers turns them into gaps: silence asked for, nothing lost.
    func testASwitchTurnedOffLosesNothing() async throws {
        let pipeline = try Pipeline(name: "switch")
        let (_, valve, _) = try Self.chain(in: pipeline, middle: "valve", properties: ["drop-mode": "transform-to-gap"])
        let gaps = SoundGaps(at: try valve.staticPad("src"))
        let seen = Locked(0)
        // On the streaming thread, before the valve takes the buffer: buffers 30 to 59 are dropped.
        try valve.staticPad("sink").addBufferProbe { _ in
            let count = seen.withValue { $0 += 1; return $0 }
            if count == 31 || count == 61 { try? valve.set("drop", count == 31) }
            return .pass
        }
        let passed = Locked(0)
        try valve.staticPad("src").addBufferProbe { _ in passed.withValue { $0 += 1 }; return .pass }
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        try await waitForMessage(messages, "end of stream") { $0.isEndOfStream }
        try pipeline.setState(.null)
        XCTAssertEqual(passed.value, 70, "the switch let through \(passed.value) buffers of 100")
        XCTAssertEqual(gaps.lost, .zero)
    }

    /// A device whose first sound is a second into the recording (a machine too busy to read it sooner):
    /// the second before it is lost, less the 200 ms a device may take to start, though nothing skips after it.
    func testTheTimeBeforeADeviceBeganLateIsCountedLost() async throws {
        let pipeline = try Pipeline(name: "late")
        let (source, queue, _) = try Self.chain(in: pipeline, properties: [:])
        try source.set("timestamp-offset", Int64(1_000_000_000))
        let gaps = SoundGaps(at: try queue.staticPad("src"), from: try queue.staticPad("sink"))
        let onTime = SoundGaps(at: try queue.staticPad("src"))
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        try await waitForMessage(messages, "end of stream") { $0.isEndOfStream }
        try pipeline.setState(.null)
        XCTAssertEqual(gaps.lost, .milliseconds(800))
        XCTAssertEqual(onTime.lost, .zero, "without its source, the count starts at the first sound")
    }

    /// A source of 100 buffers of 10 ms of sound, `middle` made with `properties`, and a sink.
    private static func chain(in pipeline: Pipeline, middle: String = "queue",
                              properties: KeyValuePairs<String, any PropertyValueConvertible>) throws -> (Element, Element, Element) {
        let source = try Element.make("audiotestsrc", properties: ["num-buffers": 100, "samplesperbuffer": 480])
        let caps = try Element.make("capsfilter", properties: ["caps": try Caps("audio/x-raw,format=S16LE,rate=48000,channels=1")])
        let element = try Element.make(middle, properties: properties)
        let sink = try Element.make("fakesink", properties: ["sync": false])
        try pipeline.addChain([source, caps, element, sink])
        return (source, element, sink)
    }
}
