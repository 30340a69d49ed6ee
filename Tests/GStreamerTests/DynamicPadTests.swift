import Locking
import XCTest
@testable import GStreamer

/// Demuxers and decodebin create their pads once they have read the stream; `onPadAdded` links them.
final class DynamicPadTests: XCTestCase {
    /// Writes five red 64×48 frames (and, if asked, 1/6 s of a tone) into a Matroska file.
    private func writeMatroska(frames: Int = 5, withAudio: Bool) async throws -> String {
        let path = temporaryPath(withAudio ? "av.mkv" : "video.mkv", for: self)
        let pipeline = try Pipeline(name: "writer")
        let camera = try Element.make("videotestsrc", name: "camera0", properties: ["num-buffers": frames, "pattern": "red"])
        let muxer = try Element.make("matroskamux", name: "muxer")
        let file = try Element.make("filesink", name: "file", properties: ["location": path])
        try pipeline.add(camera, muxer, file)
        try camera.link(muxer, filter: try Caps("video/x-raw, format=I420, width=64, height=48, framerate=30/1"))
        try muxer.link(file)
        if withAudio {
            let microphone = try Element.make("audiotestsrc", name: "mic", properties: ["num-buffers": 5, "samplesperbuffer": 1600])
            try pipeline.add(microphone)
            try microphone.link(muxer, filter: try Caps("audio/x-raw, format=S16LE, rate=48000, channels=1"))
        }
        try await playToEndOfStream(pipeline)
        try pipeline.setState(.null)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, 64 * 48 * 3 / 2 * frames, "the file holds every raw frame")
        return path
    }

    func testMatroskaDemuxerPadsAreLinkedWhenAdded() async throws {
        let path = try await writeMatroska(withAudio: true)
        let pipeline = try Pipeline(name: "reader")
        let file = try Element.make("filesrc", name: "file", properties: ["location": path])
        let demuxer = try Element.make("matroskademux", name: "demuxer")
        // Each branch has its queue: the demuxer's one thread would block on the first sink to preroll.
        let videoQueue = try Element.make("queue", name: "video-queue"), audioQueue = try Element.make("queue", name: "audio-queue")
        let video = try AppSink(name: "video"), audio = try AppSink(name: "audio")
        try pipeline.add(file, demuxer, videoQueue, video, audioQueue, audio)
        try file.link(demuxer)
        try pipeline.link(videoQueue, video)
        try pipeline.link(audioQueue, audio)
        XCTAssertTrue(demuxer.pads.allSatisfy { $0.direction == .sink }, "no source pads before the stream is read")

        let added = Locked<[String]>([])
        let failures = Locked<[String]>([])
        demuxer.onPadAdded { pad in
            added.withValue { $0.append(pad.name) }
            do {
                let queue = pad.name.hasPrefix("video") ? videoQueue : audioQueue
                try pad.link(to: queue.staticPad("sink"))
            } catch {
                failures.withValue { $0.append("\(error)") }
            }
        }
        let videoFrames = Locked<[Sample]>([]), audioBuffers = Locked(0)
        video.onSample { sample in videoFrames.withValue { $0.append(sample) } }
        audio.onSample { _ in audioBuffers.withValue { $0 += 1 } }

        try await playToEndOfStream(pipeline)
        XCTAssertEqual(failures.value, [])
        XCTAssertEqual(added.value.sorted(), ["audio_0", "video_0"])
        XCTAssertEqual(videoFrames.value.count, 5)
        XCTAssertGreaterThan(audioBuffers.value, 0)
        let info = try XCTUnwrap(videoFrames.value.first?.videoInfo)
        XCTAssertEqual([info.format, "\(info.width)x\(info.height)"], ["I420", "64x48"])
    }

    func testDecodebinPadIsLinkedWhenAdded() async throws {
        let path = try await writeMatroska(withAudio: false)
        let pipeline = try Pipeline(name: "player")
        let file = try Element.make("filesrc", name: "file", properties: ["location": path])
        let decoder = try Element.make("decodebin", name: "decoder")
        let convert = try Element.make("videoconvert", name: "convert")
        let sink = try AppSink(name: "frames", caps: try Caps("video/x-raw, format=RGBx"))
        try pipeline.add(file, decoder, convert, sink)
        try file.link(decoder)
        try convert.link(sink)

        let failures = Locked<[String]>([])
        decoder.onPadAdded { pad in
            do { try pad.link(to: convert.staticPad("sink")) } catch { failures.withValue { $0.append("\(error)") } }
        }
        let frames = sink.samples()
        try await playToEndOfStream(pipeline)
        let decoded = try await collectAll(frames, "decoded frames")
        XCTAssertEqual(failures.value, [])
        XCTAssertEqual(decoded.count, 5)
        XCTAssertTrue(decoded.allSatisfy { $0.color(x: 32, y: 24)?.isRed == true }, "\(decoded.map { $0.color(x: 32, y: 24) })")
    }
}
