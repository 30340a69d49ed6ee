import Locking
import XCTest
@testable import GStreamer

/// Frames put on a track's frame grid: every time a whole picture of the grid's rate, never two frames at
/// one time, whatever the source's own pace.
final class FrameGridTests: XCTestCase {
    /// 31 frames a second (32.3 ms apart, off the 30 fps grid, and a little faster than it) through a pad
    /// that puts them on the 30 fps grid: each frame moves to its nearest grid time, and the one frame a
    /// second that would share a grid time with the frame before is dropped.
    func testFramesOfAFasterSourceLandOnTheGridOnceEach() async throws {
        let pipeline = try Pipeline(name: "grid")
        let source = try Element.make("videotestsrc", properties: ["num-buffers": 62])
        let caps = try Element.make("capsfilter", properties: ["caps": try Caps("video/x-raw,width=64,height=48,framerate=31/1")])
        let sink = try Element.make("fakesink", properties: ["sync": false])
        try pipeline.addChain([source, caps, sink])
        try caps.staticPad("src").putFramesOnGrid(rate: Fraction(30, 1))
        let times = Locked<[Duration]>([])
        try sink.staticPad("sink").addBufferProbe { time in
            if let time { times.withValue { $0.append(time) } }
            return .pass
        }
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        try await waitForMessage(messages, "end of stream") { $0.isEndOfStream }
        try pipeline.setState(.null)

        let frames = times.value.map { Double($0.components.attoseconds) / 1e18 * 30 + Double($0.components.seconds) * 30 }
        XCTAssertEqual(frames.count, 60, "two of 62 frames share a grid time with the one before: \(frames)")
        for frame in frames { XCTAssertEqual(frame, frame.rounded(), accuracy: 1e-6, "on the grid: \(frames)") }
        XCTAssertEqual(zip(frames, frames.dropFirst()).filter { $1 <= $0 }.count, 0, "each grid time once: \(frames)")
        XCTAssertEqual(frames.first, 0)
        XCTAssertEqual(frames.last ?? 0, 61 * 30 / 31, accuracy: 0.5 + 1e-6, "the last frame at its own time, rounded: \(frames)")
    }
}
