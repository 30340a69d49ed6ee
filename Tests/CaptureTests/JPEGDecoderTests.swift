import CaptureModel
import Foundation
import GStreamer
import Locking
import PipcamTestSupport
import XCTest

/// pipcam's JPEG decoder on MJPEG as webcams send it: every sampling a camera may send, at each size it
/// can decode to, a broken picture among good ones, and why the graph decodes whole.
final class JPEGDecoderTests: XCTestCase {
    /// Pictures as a 1080p webcam sends them: 4:2:2, libjpeg quality 85, a sensor's grain over moving bars.
    private static let webcamClip = Locked<String?>(nil)

    private func webcamClip() throws -> String {
        try Self.webcamClip.withValue { made in
            if let made { return made }
            let path = try Paths.scratch("scaled-jpeg") + "/webcam.mkv"
            try makeClip(path, width: 1920, height: 1080, format: "Y42B", pictures: 12, container: "matroskamux")
            made = path
            return path
        }
    }

    /// Why the graph decodes whole: decoded at 1/2, 1/4 or 1/8 of its size (the smallest that still covers
    /// where it is shown) and then scaled as the graph scales (videoscale's multi-tap linear filter), a
    /// camera scores lower against a whole accurate decode scaled with Lanczos than decoded whole and scaled
    /// by the same filter: the reduced IDCTs filter each 8x8 block alone. Cheaper, but picture quality is
    /// not traded for CPU.
    func testAScaledDecodeScoresBelowAWholeDecodeAndTheGraphsScaler() async throws {
        let clip = try webcamClip(), folder = try Paths.scratch("scaled-jpeg-quality")
        var figures: [String] = []
        for (width, height, scale) in [(576, 324, 2), (384, 216, 4), (384, 216, 2), (224, 126, 8)] {
            let reference = "\(folder)/reference-\(width).y4m"
            let made = try Command.run(["gst-launch-1.0", "-q", "filesrc", "location=\(clip)", "!", "matroskademux", "!", "jpegdec", "idct-method=islow",
                                        "!", "videoconvert", "!", "videoscale", "method=lanczos", "!", "video/x-raw,format=I420,width=\(width),height=\(height)",
                                        "!", "y4menc", "!", "filesink", "location=\(reference)"])
            XCTAssertEqual(made.status, 0, made.error)
            let scaled = "\(folder)/scaled-\(width)-\(scale).y4m", whole = "\(folder)/whole-\(width).y4m"
            try await decode(clip, scale: scale, to: (width, height), into: scaled)
            try await decode(clip, scale: 1, to: (width, height), into: whole)
            let scaledPSNR = try XCTUnwrap(try MediaProbe.psnr(path: scaled, reference: reference, width: width, height: height))
            let wholePSNR = try XCTUnwrap(try MediaProbe.psnr(path: whole, reference: reference, width: width, height: height))
            figures.append(String(format: "%dx%d at 1/%d: %.2f dB, whole: %.2f dB", width, height, scale, scaledPSNR, wholePSNR))
            XCTAssertLessThan(scaledPSNR, wholePSNR, figures.last!)
        }
        print("scaled decodes against whole ones: " + figures.joined(separator: "; "))
    }

    /// Every sampling a camera may send (and grey), at a height that is no multiple of a block row: each scale
    /// decodes to the size libjpeg's scaled IDCT gives, in I420, and the picture is the one another decoder
    /// decodes (scaled with Lanczos). jpegdec is that decoder, but its 4:1:1 chroma is wrong (5 dB against
    /// ffmpeg and pipcam alike): ffmpeg's is the reference there.
    /// (Y4M files hold rows as GStreamer lays them out: the sizes compared keep every plane unpadded.)
    func testEverySamplingDecodesToItsScaledSizeAndTheSamePicture() async throws {
        let folder = try Paths.scratch("scaled-jpeg-samplings")
        let width = 1024, height = 360
        for format in ["I420", "Y42B", "Y444", "Y41B", "GRAY8"] {
            let clip = "\(folder)/\(format).mkv"
            try makeClip(clip, width: width, height: height, format: format, pictures: 3, container: "matroskamux")
            for scale in [1, 2, 4, 8] {
                // libjpeg rounds a scaled size up.
                let size = (width: (width + scale - 1) / scale, height: (height + scale - 1) / scale)
                let ours = "\(folder)/\(format)-\(scale).y4m", theirs = "\(folder)/\(format)-\(scale)-reference.y4m"
                try await decode(clip, scale: scale, to: nil, into: ours)
                let header = try y4mHeader(ours)
                XCTAssertTrue(header.contains(" W\(size.width) H\(size.height) "), "\(format) at 1/\(scale): \(header)")
                XCTAssertTrue(header.contains(" C420"), "\(format) at 1/\(scale) is I420: \(header)")
                // An odd height pads GStreamer's planes, which a Y4M reader does not expect.
                guard size.height % 2 == 0 else { continue }
                let made = format == "Y41B"
                    ? try Command.run(["ffmpeg", "-v", "error", "-y", "-i", clip, "-vf", "scale=\(size.width):\(size.height):flags=lanczos,format=yuvj420p",
                                       "-strict", "-1", "-f", "yuv4mpegpipe", theirs])
                    : try Command.run(["gst-launch-1.0", "-q", "filesrc", "location=\(clip)", "!", "matroskademux", "!", "jpegdec", "idct-method=islow",
                                       "!", "videoconvert", "!", "videoscale", "method=lanczos",
                                       "!", "video/x-raw,format=I420,width=\(size.width),height=\(size.height)", "!", "y4menc", "!", "filesink", "location=\(theirs)"])
                XCTAssertEqual(made.status, 0, made.error)
                // The same picture: a misplaced plane or row scores below 15 dB.
                let psnr = try XCTUnwrap(try MediaProbe.psnr(path: ours, reference: theirs, width: size.width, height: size.height))
                XCTAssertGreaterThan(psnr, scale == 1 ? 40 : 25, "\(format) at 1/\(scale)")
            }
        }
    }

    /// Ending a decode frees libjpeg's memory for the picture, the components' sizes among it; the chroma
    /// written after must not read them there. Once another thread reused that memory, a 1080p camera's
    /// chroma came out wrong, or pipcam crashed (about one recording in 25 with another program busy).
    /// Here glibc fills every block as it is freed, so such a read goes wrong at every picture.
    func testAPictureIsTheSameWhenFreedMemoryIsOverwrittenAtOnce() async throws {
        let folder = try Paths.scratch("scaled-jpeg-freed")
        for format in ["Y42B", "Y444", "Y41B"] {
            let clip = "\(folder)/\(format).mkv", plain = "\(folder)/\(format).y4m", overwritten = "\(folder)/\(format)-overwritten.y4m"
            try makeClip(clip, width: 640, height: 360, format: format, pictures: 3, container: "matroskamux")
            try await decode(clip, scale: 1, to: nil, into: plain)
            try fillFreedMemory(with: 0xA5)
            do {
                defer { try? fillFreedMemory(with: 0) }
                try await decode(clip, scale: 1, to: nil, into: overwritten)
            }
            let expected = try Data(contentsOf: URL(fileURLWithPath: plain))
            XCTAssertGreaterThan(expected.count, 3 * 640 * 360, format)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: overwritten)), expected, format)
        }
    }

    /// A picture that is not a JPEG, between good ones: it is dropped and the stream goes on, as a camera's
    /// damaged picture must not end a recording.
    func testABrokenPictureIsDroppedAndTheNextDecoded() async throws {
        let folder = try Paths.scratch("scaled-jpeg-broken")
        let made = try Command.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=5", "!", "video/x-raw,width=320,height=240",
                                    "!", "jpegenc", "!", "multifilesink", "location=\(folder)/%d.jpg"])
        XCTAssertEqual(made.status, 0, made.error)
        try Data("not a picture at all".utf8).write(to: URL(fileURLWithPath: "\(folder)/2.jpg"))
        let pipeline = try Pipeline(name: "broken")
        let source = try Element.make("multifilesrc", properties: ["location": "\(folder)/%d.jpg", "stop-index": 4,
                                                                    "caps": try Caps("image/jpeg,framerate=30/1")])
        let decoder = try Element.make(ElementFactory.jpegDecoder.rawValue, properties: ["scale": 2])
        let sink = try Element.make("fakesink")
        try pipeline.add([source, decoder, sink])
        try pipeline.link([source, decoder, sink])
        let pictures = Locked(0)
        _ = try sink.staticPad("sink").addBufferProbe { _ in pictures.withValue { $0 += 1 }; return .pass }
        try await pipeline.runToEnd(timeout: .seconds(30))
        XCTAssertEqual(pictures.value, 4, "the four good pictures, the broken one dropped")
    }

    // MARK: helpers

    /// Moving bars with grain (grey for GRAY8), `pictures` of them, JPEG-compressed at quality 85 in `format`'s sampling.
    private func makeClip(_ path: String, width: Int, height: Int, format: String, pictures: Int, container: String) throws {
        let caps = "video/x-raw,width=\(width),height=\(height),framerate=30/1"
        let made = try Command.run(["gst-launch-1.0", "-q", "-e", "compositor", "name=grain", "sink_1::alpha=0.05", "!",
                                    "video/x-raw,format=\(format == "GRAY8" ? "I420" : format)", "!", "videoconvert", "!", "video/x-raw,format=\(format)",
                                    "!", "jpegenc", "quality=85", "!", container, "!", "filesink", "location=\(path)",
                                    "videotestsrc", "num-buffers=\(pictures)", "pattern=smpte", "horizontal-speed=4", "!", caps, "!", "grain.sink_0",
                                    "videotestsrc", "num-buffers=\(pictures)", "pattern=snow", "!", caps, "!", "grain.sink_1"])
        XCTAssertEqual(made.status, 0, made.error)
    }

    /// The clip's pictures through pipcam's decoder at `scale`, scaled to `size` by videoscale as the graph
    /// scales a clip camera's (or left as decoded), written as a Y4M file.
    private func decode(_ clip: String, scale: Int, to size: (width: Int, height: Int)?, into path: String) async throws {
        let pipeline = try Pipeline(name: "decode")
        let source = try Element.make("filesrc", properties: ["location": clip])
        let pictures = try Element.make("matroskademux")
        let decoder = try Element.make(ElementFactory.jpegDecoder.rawValue, properties: ["scale": scale])
        var after = [decoder]
        if let size {
            after += [try Element.make("videoscale", properties: ["method": "bilinear2"]),
                      try Element.make("capsfilter", properties: ["caps": try Caps("video/x-raw,width=\(size.width),height=\(size.height)")])]
        }
        after += [try Element.make("y4menc"), try Element.make("filesink", properties: ["location": path])]
        try pipeline.add([source, pictures] + after)
        try source.link(pictures)
        try pipeline.link(after)
        let input = try decoder.staticPad("sink")
        pictures.onPadAdded { pad in try? pad.link(to: input) }
        try await pipeline.runToEnd(timeout: .seconds(60))
    }

    /// glibc's `mallopt(M_PERTURB, byte)` (M_PERTURB is -6 in malloc.h, which Swift's Glibc does not
    /// import): every block freed from now on is filled with `byte`; 0 stops it.
    private func fillFreedMemory(with byte: Int32) throws {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let symbol = try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt"), "glibc's mallopt")
        XCTAssertEqual(unsafeBitCast(symbol, to: Mallopt.self)(-6, byte), 1, "mallopt(M_PERTURB, \(byte))")
    }

    private func y4mHeader(_ path: String) throws -> String {
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        let start = try handle.read(upToCount: 200) ?? Data()
        return String(decoding: start.prefix { $0 != 0x0A }, as: UTF8.self) + " "
    }
}
