@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import GStreamer
import PipcamTestSupport
import XCTest

final class Y4MClipTests: XCTestCase {
    func testA720pClipIsMappedWithTheCapsGStreamerWouldState() throws {
        let header = try Y4MClip.Header(line: "YUV4MPEG2 W1280 H720 F30000:1001 Ip A1:1 C420jpeg XYSCSS=420JPEG")
        XCTAssertTrue(header.isMappable)
        XCTAssertEqual(header.frameSize, 1280 * 720 * 3 / 2)
        XCTAssertEqual(header.rate.numerator, 30000)
        XCTAssertEqual(header.rate.denominator, 1001)
        for field in ["format=(string)I420", "width=(int)1280", "framerate=(fraction)30000/1001", "colorimetry="] {
            XCTAssertTrue(header.caps.description.contains(field), "\(field) missing from \(header.caps)")
        }
    }

    func testOtherLayoutsAreMappedWhereGStreamerPacksThemTheSameWay() throws {
        XCTAssertTrue(try Y4MClip.Header(line: "YUV4MPEG2 W640 H360 F25:1 C422").caps.description.contains("Y42B"))
        XCTAssertEqual(try Y4MClip.Header(line: "YUV4MPEG2 W640 H360 F25:1 C422").frameSize, 640 * 360 * 2)
        XCTAssertTrue(try Y4MClip.Header(line: "YUV4MPEG2 W640 H360 F25:1 C444").isMappable)
        XCTAssertTrue(try Y4MClip.Header(line: "YUV4MPEG2 W640 H360 F25:1 Cmono").isMappable)
        // GStreamer pads rows to 4 bytes: chroma rows of 161 or 322 bytes are laid out differently.
        XCTAssertFalse(try Y4MClip.Header(line: "YUV4MPEG2 W322 H180 F25:1").isMappable)
        XCTAssertFalse(try Y4MClip.Header(line: "YUV4MPEG2 W644 H362 F25:1").isMappable)
        XCTAssertFalse(try Y4MClip.Header(line: "YUV4MPEG2 W640 H360 F25:1 It").isMappable, "interlaced: left to y4mdec")
    }

    /// Headers y4mdec would refuse once the recording starts are refused when the clip is checked, each
    /// with what in it is wrong.
    func testHeadersThatCannotBeReplayedSayWhy() {
        let refused = [
            ("YUV4MPEG2 W0 H360 F25:1", "0x360"), ("YUV4MPEG2 W-640 H360 F25:1", "-640x360"),
            ("YUV4MPEG2 W99999 H360 F25:1", "99999x360"), ("YUV4MPEG2 H360 F25:1", "without a picture size"),
            ("YUV4MPEG2 W640 H360 F0:1", "frame rate of 0:1"), ("YUV4MPEG2 W640 H360 F25:-1", "frame rate of 25:-1"),
            ("YUV4MPEG2 W640 H360", "no frame rate"), ("YUV4MPEG2 W640 H360 F25:1 C420p10", "colour space C420p10"),
            ("YUV4MPEG2 W640 H360 F25:1 Cxyz", "colour space Cxyz"), ("YUV4MPEG2 W640 H360 F25:1 Im", "interlacing Im"),
            ("YUV4MPEG2 W642 H360 F25:1 Cmono", "multiple of 4"), ("RIFF W640 H360 F25:1", "not a YUV4MPEG2 clip"),
        ]
        for (line, reason) in refused {
            XCTAssertThrowsError(try Y4MClip.Header(line: line), line) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(line): \(error)")
            }
        }
    }

    /// Raw clips pipcam cannot map are still read as raw video (y4mdec), not typefound by decodebin.
    func testEveryRawClipIsReadAsRawAndOnlyOthersAreDecoded() throws {
        let folder = try Paths.scratch("y4m-reading")
        func reading(_ start: String) throws -> Y4MClip.Reading {
            let path = "\(folder)/\(UUID().uuidString)"
            try Data(start.utf8).write(to: URL(fileURLWithPath: path))
            return Y4MClip.reading(ofFileAt: path)
        }
        guard case .mapped = try reading("YUV4MPEG2 W640 H360 F30:1 Ip C420jpeg\nFRAME\n") else { return XCTFail("progressive 4:2:0") }
        guard case .raw = try reading("YUV4MPEG2 W640 H360 F30:1 It C420jpeg\nFRAME\n") else { return XCTFail("interlaced") }
        guard case .raw = try reading("YUV4MPEG2 W644 H362 F30:1 C420jpeg\nFRAME\n") else { return XCTFail("padded rows") }
        guard case .unreadable = try reading("YUV4MPEG2 W0 H362 F30:1 C420jpeg\nFRAME\n") else { return XCTFail("no picture size") }
        guard case .decoded = try reading("\u{1A}E\u{DF}\u{A3} Matroska\n") else { return XCTFail("not raw") }
    }

    /// A clip cut short in the middle of a picture ends with the last whole picture, and the recording
    /// with it.
    func testAClipCutShortEndsAtItsLastWholePicture() async throws {
        let folder = try Paths.scratch("y4m-cut")
        let path = "\(folder)/clip.y4m"
        try makeY4MClip(at: path, frames: 10, width: 320, height: 180)
        guard case .mapped(let header) = Y4MClip.reading(ofFileAt: path) else { return XCTFail("\(path) is not mapped") }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let cut = size - header.frameSize * 3 - header.frameSize / 2  // 6 whole pictures and half of the 7th
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(cut))
        try handle.close()
        var configuration = Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [CaptureDevice.fileCamera(id: "a", path: path)], microphones: [])
        configuration.replay = .fast
        let summary = try await recordUntilTheClipsEnd(configuration)
        XCTAssertNil(summary.problem)
        XCTAssertEqual(try MediaProbe.videoFrameCount(path: "\(folder)/out.mkv"), 6)
    }

    /// A clip cut short while it plays ends at its last whole picture instead of killing the process
    /// (a mapped page past the end of a file raises SIGBUS).
    func testAClipCutShortWhileMappedEndsInsteadOfCrashing() async throws {
        let folder = try Paths.scratch("y4m-cut-mapped")
        let path = "\(folder)/clip.y4m"
        try makeY4MClip(at: path, frames: 10, width: 320, height: 180)
        let clip = try Y4MClip(path: path)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        // A third: 3 whole pictures, and the 4th with its last 14 pages gone from the file.
        try handle.truncate(atOffset: UInt64(size / 3))
        try handle.close()
        let pictures = try await Self.play(clip)
        XCTAssertEqual(pictures, 3)
    }

    /// Plays a mapped clip through a pipeline that reads every byte (as an encoder would) to its end;
    /// returns the number of pictures that went through.
    private static func play(_ clip: Y4MClip) async throws -> Int {
        let pipeline = try Pipeline(name: "clip-play")
        let source = try AppSource(name: "clip", caps: clip.header.caps)
        let convert = try Element.make("videoconvert"), sink = try Element.make("fakesink", properties: ["sync": false])
        try pipeline.add([source, convert, sink])
        try source.link(convert)
        try convert.link(sink, filter: Caps("video/x-raw,format=RGB"))
        let counter = FrameCounter()
        try sink.staticPad("sink").addBufferProbe { time in counter.bump(time); return .pass }
        source.feed(clip.feed)
        let messages = pipeline.bus.messages()
        try pipeline.setState(.playing)
        let end = try await messages.first(timeout: .seconds(30)) { message in
            switch message.kind {
            case .eos, .error: return true
            default: return false
            }
        }
        _ = try pipeline.setState(.null)
        guard case .eos? = end?.kind else { throw ProbeError("the clip did not play to its end: \(String(describing: end?.kind))") }
        return counter.value
    }

    /// Pictures GStreamer has let go of are unmapped: a replayed clip does not stay in the recording's
    /// memory. The clip is 41 MB; read whole and kept mapped, all of it would be resident by the end.
    /// Pages go back a picture's worth at a time: given back 8 MB at a time, two 720p clips held 10 MB
    /// each in a live recording's peak (92.5 MB in all, 82.3 MB since).
    func testPicturesLetGoOfStopCountingInMemory() async throws {
        let folder = try Paths.scratch("y4m-memory")
        let path = "\(folder)/clip.y4m"
        try makeY4MClip(at: path, frames: 120, width: 640, height: 360)
        let clip = try Y4MClip(path: path)
        let pictures = try await Self.play(clip)
        XCTAssertEqual(pictures, 120)
        try withExtendedLifetime(clip) {
            let resident = try XCTUnwrap(Self.residentKilobytes(ofMappingOf: path), "the clip is no longer mapped")
            XCTAssertLessThan(resident, 2 * clip.header.frameSize / 1024, "kB of the clip still resident: less than two pictures")
        }
    }

    /// The resident size of this process's mapping of `path`, from /proc/self/smaps.
    private static func residentKilobytes(ofMappingOf path: String) throws -> Int? {
        // Read to its end: procfs files state no size, and a sized read would stop short.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if line.first?.isHexDigit == true && line.contains("-") && line.split(separator: " ").count >= 5 {
                inMapping = line.hasSuffix(path)
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ")[1])
            }
        }
        return nil
    }
}
