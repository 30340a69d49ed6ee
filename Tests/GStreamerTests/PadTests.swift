import Locking
import XCTest
@testable import GStreamer

/// Request pads of compositor and audiomixer carry each input's properties, and changing them while
/// PLAYING must show in the output.
final class PadTests: XCTestCase {
    func testCompositorPadProperties() throws {
        let mixer = try Element.make("compositor", name: "mixer")
        let pad = try mixer.requestPad("sink_%u")
        XCTAssertEqual(pad.name, "sink_0")
        XCTAssertEqual(pad.typeName, "GstCompositorPad")
        XCTAssertEqual(pad.direction, .sink)
        try pad.set(["xpos": 10, "ypos": 20, "width": 320, "height": 240, "zorder": UInt32(3), "alpha": 0.5])
        XCTAssertEqual(try pad.property("xpos"), .int(10))
        XCTAssertEqual(try pad.property("ypos"), .int(20))
        XCTAssertEqual(try pad.property("width"), .int(320))
        XCTAssertEqual(try pad.property("height"), .int(240))
        XCTAssertEqual(try pad.property("zorder"), .uint(3))
        XCTAssertEqual(try pad.property("alpha"), .double(0.5))

        XCTAssertThrowsError(try pad.set("alpha", 1.5)) { error in
            XCTAssertEqual(error as? GStreamerError, .invalidPropertyValue(
                object: "mixer:sink_0", property: "alpha", expected: "gdouble", value: "1.5"))
        }
        XCTAssertThrowsError(try pad.set("xpos", "left")) { error in
            XCTAssertEqual("\(error)", "property 'xpos' of 'mixer:sink_0' expects gint, not a String")
        }

        let second = try mixer.requestPad("sink_%u")
        XCTAssertEqual(second.name, "sink_1")
        mixer.releaseRequestPad(pad)
        XCTAssertEqual(mixer.pads.filter { $0.direction == .sink }.map(\.name), ["sink_1"])
        XCTAssertThrowsError(try mixer.requestPad("video_%u")) { error in
            XCTAssertEqual(error as? GStreamerError, .noSuchPad(element: "mixer", pad: "video_%u"))
        }
    }

    func testAudioMixerPadProperties() throws {
        let mixer = try Element.make("audiomixer", name: "mixer")
        let pad = try mixer.requestPad("sink_%u")
        try pad.set(["volume": 0.5, "mute": true])
        XCTAssertEqual(try pad.property("volume"), .double(0.5))
        XCTAssertEqual(try pad.property("mute"), .bool(true))
        XCTAssertThrowsError(try pad.set("volume", 11.0)) { error in
            XCTAssertTrue("\(error)".contains("'volume' of 'mixer:sink_0' expects gdouble"), "\(error)")
        }
    }

    func testPadLinkErrorNamesBothPads() throws {
        let pipeline = try Pipeline(name: "p")
        let microphone = try Element.make("audiotestsrc", name: "mic")
        let mixer = try Element.make("compositor", name: "mixer")
        try pipeline.add(microphone, mixer)
        let input = try mixer.requestPad("sink_%u")
        let output = try microphone.staticPad("src")
        XCTAssertThrowsError(try output.link(to: input)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("cannot link 'mic':src to 'mixer':sink_0: no common format (audio/x-raw"), text)
        }

        let other = try Pipeline(name: "other")
        let camera = try Element.make("videotestsrc", name: "camera0")
        try other.add(camera)
        XCTAssertThrowsError(try camera.staticPad("src").link(to: input)) { error in
            XCTAssertEqual("\(error)", "cannot link 'camera0':src to 'mixer':sink_0: the elements are not in the same bin")
        }
    }

    func testPadAlreadyLinked() throws {
        let pipeline = try Pipeline(name: "p")
        let camera = try Element.make("videotestsrc", name: "camera0")
        let first = try Element.make("fakesink", name: "first"), second = try Element.make("fakesink", name: "second")
        try pipeline.add(camera, first, second)
        try camera.staticPad("src").link(to: first.staticPad("sink"))
        XCTAssertThrowsError(try camera.staticPad("src").link(to: second.staticPad("sink"))) { error in
            XCTAssertEqual("\(error)", "cannot link 'camera0':src to 'second':sink: a pad is already linked")
        }
        XCTAssertEqual(try camera.staticPad("src").peer?.parentElement?.name, "first")
        try camera.staticPad("src").unlink(from: first.staticPad("sink"))
        try camera.staticPad("src").link(to: second.staticPad("sink"))
    }

    // MARK: changes while playing

    /// A red 16×16 box on a black 64×48 background, moved and resized while PLAYING.
    func testMovingACompositorInputWhilePlayingShowsInTheFrames() async throws {
        let pipeline = try Pipeline(name: "pip")
        let box = try Element.make("videotestsrc", name: "box", properties: ["is-live": true, "pattern": "red"])
        let boxCaps = try Element.make("capsfilter", name: "box-caps",
                                       properties: ["caps": "video/x-raw, width=16, height=16, framerate=30/1"])
        let mixer = try Element.make("compositor", name: "mixer", properties: ["background": "black"])
        let convert = try Element.make("videoconvert", name: "convert")
        let sink = try AppSink(name: "frames", caps: try Caps("video/x-raw, format=RGBx"))
        try pipeline.add(box, boxCaps, mixer, convert, sink)
        try box.link(boxCaps)
        let input = try mixer.requestPad("sink_%u")
        try input.set(["xpos": 0, "ypos": 0, "width": 16, "height": 16])
        try boxCaps.staticPad("src").link(to: input)
        try mixer.link(convert, filter: try Caps("video/x-raw, width=64, height=48"))
        try convert.link(sink)
        let frames = sink.samples()
        try await pipeline.reachState(.playing)

        let atStart = try await nextFrame(frames, "the box at the left") { frame in
            frame.color(x: 8, y: 8)?.isRed == true && frame.color(x: 40, y: 8)?.isBlack == true
        }
        XCTAssertEqual(atStart.videoInfo?.width, 64)
        XCTAssertEqual(atStart.videoInfo?.format, "RGBx")

        try input.set("xpos", 32)
        XCTAssertEqual(pipeline.currentState, .playing)
        try await nextFrame(frames, "the box moved right") { frame in
            frame.color(x: 40, y: 8)?.isRed == true && frame.color(x: 8, y: 8)?.isBlack == true
        }

        try input.set(["width": 32, "height": 32])
        try await nextFrame(frames, "the box grown") { frame in
            frame.color(x: 60, y: 28)?.isRed == true && frame.color(x: 28, y: 8)?.isBlack == true
                && frame.color(x: 60, y: 40)?.isBlack == true
        }
        try pipeline.setState(.null)
    }

    /// A sine tone through audiomixer, muted and unmuted while PLAYING.
    func testMutingAnAudioMixerInputWhilePlaying() async throws {
        let pipeline = try Pipeline(name: "sound")
        let format = "audio/x-raw, format=S16LE, rate=48000, channels=1, layout=interleaved"
        let tone = try Element.make("audiotestsrc", name: "tone",
                                    properties: ["is-live": true, "volume": 0.5, "samplesperbuffer": 480])
        let toneCaps = try Element.make("capsfilter", name: "tone-caps", properties: ["caps": format])
        let mixer = try Element.make("audiomixer", name: "mixer")
        let sink = try AppSink(name: "audio", caps: try Caps(format))
        try pipeline.add(tone, toneCaps, mixer, sink)
        try tone.link(toneCaps)
        let input = try mixer.requestPad("sink_%u")
        try input.set("mute", true)
        try toneCaps.staticPad("src").link(to: input)
        try mixer.link(sink)
        let buffers = sink.samples()
        try await pipeline.reachState(.playing)

        let loud: @Sendable (Sample) -> Bool = { ($0.int16Samples().map { abs(Int($0)) }.max() ?? 0) > 8000 }
        let silent: @Sendable (Sample) -> Bool = { sample in
            let samples = sample.int16Samples()
            return !samples.isEmpty && samples.allSatisfy { $0 == 0 }
        }
        try await nextFrame(buffers, "silence while muted", where: silent)
        try input.set("mute", false)
        try await nextFrame(buffers, "the tone once unmuted", where: loud)
        try input.set("volume", 0.0)
        try await nextFrame(buffers, "silence at volume 0", where: silent)
        try input.set("volume", 1.0)
        try await nextFrame(buffers, "the tone at volume 1", where: loud)
        try pipeline.setState(.null)
    }

    /// Each buffer's span as it passes: 10 ms of sound from its time, end to end.
    func testABufferSpanProbeGivesEachBuffersStartAndEnd() async throws {
        let pipeline = try Pipeline(name: "spans")
        let source = try Element.make("audiotestsrc", properties: ["num-buffers": 3, "samplesperbuffer": 480])
        let caps = try Element.make("capsfilter", properties: ["caps": try Caps("audio/x-raw,format=S16LE,rate=48000,channels=1")])
        let sink = try Element.make("fakesink", properties: ["sync": false])
        try pipeline.addChain([source, caps, sink])
        let spans = Locked<[[Duration?]]>([])
        try sink.staticPad("sink").addBufferSpanProbe { start, end in
            spans.withValue { $0.append([start, end]) }
            return .pass
        }
        try await playToEndOfStream(pipeline)
        try pipeline.setState(.null)
        XCTAssertEqual(spans.value, [[.zero, .milliseconds(10)], [.milliseconds(10), .milliseconds(20)], [.milliseconds(20), .milliseconds(30)]])
    }

    @discardableResult
    private func nextFrame(
        _ samples: AsyncStream<Sample>, _ what: String, timeout: Duration = .seconds(5),
        file: StaticString = #filePath, line: UInt = #line,
        where predicate: @escaping @Sendable (Sample) -> Bool
    ) async throws -> Sample {
        guard let sample = try await samples.first(timeout: timeout, where: predicate) else {
            XCTFail("timed out waiting for \(what)", file: file, line: line)
            throw GStreamerError.timeout("waiting for \(what)")
        }
        return sample
    }
}
