import Locking
import XCTest
@testable import GStreamer

final class AppSinkTests: XCTestCase {
    /// `frames` white frames of `caps` into an appsink named "frames".
    private func framePipeline(frames: Int, caps: String) throws -> (Pipeline, AppSink) {
        let pipeline = try Pipeline(name: "p")
        let source = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": frames, "pattern": "white"])
        let sink = try AppSink(name: "frames", caps: try Caps(caps))
        try pipeline.add(source, sink)
        try source.link(sink)
        return (pipeline, sink)
    }

    func testConvenienceInitializerSetsItsProperties() throws {
        let sink = try AppSink(name: "frames", caps: try Caps("video/x-raw"), maxBuffers: 2, drop: false, sync: true)
        XCTAssertEqual(try sink.property("max-buffers"), .uint(2))
        XCTAssertEqual(try sink.property("drop"), .bool(false))
        XCTAssertEqual(try sink.property("sync"), .bool(true))
        XCTAssertEqual(try sink.property("caps"), .caps(try Caps("video/x-raw")))
        XCTAssertTrue(try Element.make("appsink") is AppSink, "a factory-made appsink gets the AppSink wrapper")
    }

    func testSamplesStreamDeliversEveryFrameAndEndsAtEndOfStream() async throws {
        let (pipeline, sink) = try framePipeline(frames: 10, caps: "video/x-raw, format=RGBx, width=64, height=48, framerate=30/1")
        let samples = sink.samples()
        try pipeline.setState(.playing)
        let frames = try await collectAll(samples, "the appsink's samples")
        XCTAssertEqual(frames.count, 10)

        let times = frames.compactMap(\.presentationTime)
        XCTAssertEqual(times.count, 10)
        for (index, time) in times.enumerated() {
            // videotestsrc stamps frame n at n/30 s, rounded down to the nanosecond.
            XCTAssertEqual(time, .nanoseconds(Int64(index) * 1_000_000_000 / 30), "frame \(index)")
        }
        for frame in frames {
            let duration = try XCTUnwrap(frame.duration)
            XCTAssertTrue((.nanoseconds(33_333_333) ... .nanoseconds(33_333_334)).contains(duration), "\(duration)")
        }

        let first = try XCTUnwrap(frames.first)
        XCTAssertEqual(first.byteCount, 64 * 48 * 4)
        XCTAssertEqual(first.videoInfo?.planes.map(\.stride), [256])
        try first.withVideoFrame { frame in
            XCTAssertEqual(frame.planeCount, 1)
            XCTAssertEqual(frame.stride(plane: 0), 256)
            XCTAssertEqual(frame.plane(0).count, 256 * 48)
            XCTAssertEqual(frame.packedPixel(x: 63, y: 47).count, 4)
        }
        XCTAssertEqual(first.color(x: 10, y: 10)?.isWhite, true)
    }

    func testMappingReadsTheBufferInPlace() async throws {
        let (pipeline, sink) = try framePipeline(frames: 1, caps: "video/x-raw, format=RGBx, width=64, height=48")
        let samples = sink.samples()
        try pipeline.setState(.playing)
        let collected = try await collectAll(samples, "one sample")
        let sample = try XCTUnwrap(collected.first)
        let bytesAddress = try sample.withBytes { bytes -> UnsafeRawPointer? in
            XCTAssertEqual(bytes.count, 64 * 48 * 4)
            XCTAssertEqual(Array(bytes.prefix(3)), [255, 255, 255])
            return bytes.baseAddress
        }
        let frameAddress = try sample.withVideoFrame { $0.plane(0).baseAddress }
        XCTAssertNotNil(bytesAddress)
        XCTAssertEqual(bytesAddress, frameAddress, "both views see the buffer's own memory, not copies")
    }

    func testRowsOfOddWidthFramesArePadded() async throws {
        // 5 RGB pixels are 15 bytes; GStreamer pads each row to 16.
        let (pipeline, sink) = try framePipeline(frames: 1, caps: "video/x-raw, format=RGB, width=5, height=4")
        let samples = sink.samples()
        try pipeline.setState(.playing)
        let collected = try await collectAll(samples, "one sample")
        let sample = try XCTUnwrap(collected.first)
        XCTAssertEqual(sample.byteCount, 16 * 4)
        try sample.withVideoFrame { frame in
            XCTAssertEqual(frame.stride(plane: 0), 16)
            XCTAssertEqual(frame.packedPixel(x: 4, y: 3), [255, 255, 255])
        }
    }

    func testOnSampleClosureGetsEveryFrame() async throws {
        let (pipeline, sink) = try framePipeline(frames: 8, caps: "video/x-raw, format=RGBx, width=32, height=24")
        let counted = Locked<[Duration]>([])
        let cancelledCount = Locked(0)
        sink.onSample { sample in counted.withValue { $0.append(sample.presentationTime ?? .zero) } }
        let cancelled = sink.onSample { _ in cancelledCount.withValue { $0 += 1 } }
        cancelled.cancel()
        let samples = sink.samples()
        try await playToEndOfStream(pipeline)
        let streamed = try await collectAll(samples, "the samples stream")
        XCTAssertEqual(counted.value.count, 8)
        XCTAssertEqual(counted.value, counted.value.sorted(), "frames come in order")
        XCTAssertEqual(streamed.count, 8, "a closure and a stream can share one appsink")
        XCTAssertEqual(cancelledCount.value, 0)
    }
}
