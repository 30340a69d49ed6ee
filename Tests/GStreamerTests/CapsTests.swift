import XCTest
@testable import GStreamer

final class CapsTests: XCTestCase {
    func testCapsFromString() throws {
        let caps = try Caps("video/x-raw, format=I420, width=640, height=480, framerate=30/1")
        XCTAssertTrue(caps.isFixed)
        XCTAssertFalse(caps.isAny)
        XCTAssertFalse(caps.isEmpty)
        let structure = try XCTUnwrap(caps.structures.first)
        XCTAssertEqual(structure.name, "video/x-raw")
        XCTAssertEqual(structure.string("format"), "I420")
        XCTAssertEqual(structure.int("width"), 640)
        XCTAssertEqual(structure["framerate"], .value(.fraction(30, 1)))
        XCTAssertNil(structure["height-in-furlongs"])
    }

    func testCapsWithListsAndRanges() throws {
        let caps = try Caps("video/x-raw, format={ I420, RGBx }, width=[ 16, 1920 ], framerate=[ 1/1, 60/1 ]; audio/x-raw")
        XCTAssertFalse(caps.isFixed)
        XCTAssertEqual(caps.structures.map(\.name), ["video/x-raw", "audio/x-raw"])
        let video = caps.structures[0]
        XCTAssertEqual(video["format"], .list([.value(.string("I420")), .value(.string("RGBx"))]))
        XCTAssertEqual(video["width"], .intRange(16...1920))
        XCTAssertEqual(video["framerate"], .fractionRange(Fraction(1, 1), Fraction(60, 1)))
    }

    func testInvalidCapsStringThrows() {
        for text in ["video/x-raw,width=", "video/x-raw,width=(int)wide", "no caps at all!"] {
            XCTAssertThrowsError(try Caps(text), text) { error in
                XCTAssertEqual(error as? GStreamerError, .invalidCaps(text))
                XCTAssertEqual("\(error)", "invalid caps '\(text)'")
            }
        }
    }

    func testIntersection() throws {
        let offered = try Caps("video/x-raw, format={ I420, RGBx }, width=[ 16, 1920 ]")
        let wanted = try Caps("video/x-raw, format=RGBx, width=640")
        XCTAssertTrue(offered.intersects(wanted))
        XCTAssertEqual(offered.intersection(wanted), wanted)
        XCTAssertFalse(offered.intersects(try Caps("audio/x-raw")))
        XCTAssertTrue(offered.intersection(try Caps("audio/x-raw")).isEmpty)
        XCTAssertTrue(Caps.any().isAny)
    }

    func testCapsBuilder() throws {
        let built = CapsBuilder(.rawVideo)
            .set("format", "RGBx")
            .set("width", 640)
            .set("height", UInt32(480))
            .set("framerate", Fraction(30, 1))
            .set("interlaced", false)
            .set("pixel-aspect-ratio", Fraction(1, 1))
            .set("colorimetry", nil as String?)
            .caps
        XCTAssertEqual(built, try Caps("video/x-raw, format=RGBx, width=640, height=480, framerate=30/1, interlaced=false, pixel-aspect-ratio=1/1"))
        XCTAssertTrue(built.isFixed)
        XCTAssertEqual(built.videoInfo?.width, 640)
        XCTAssertEqual(built.launchText, "video/x-raw,format=RGBx,width=640,height=480,framerate=30/1,interlaced=false,pixel-aspect-ratio=1/1")
    }

    func testLaunchTextKeepsGStreamersOwnFormWhereThePlainOneWouldNotReadBack() throws {
        let listed = try Caps("video/x-raw, format={ I420, NV12 }")
        XCTAssertEqual(listed.launchText, listed.description)
        let spaced = CapsBuilder(.rawAudio).set("note", "a b").caps
        XCTAssertEqual(try Caps(spaced.launchText), spaced)
    }

    // MARK: video and audio info

    func testVideoInfoI420() throws {
        let info = try XCTUnwrap(VideoInfo(caps: try Caps("video/x-raw, format=I420, width=640, height=480, framerate=30/1")))
        XCTAssertEqual(info.format, "I420")
        XCTAssertEqual(info.width, 640)
        XCTAssertEqual(info.height, 480)
        XCTAssertEqual(info.frameRate, Fraction(30, 1))
        XCTAssertEqual(info.planes.map(\.stride), [640, 320, 320])
        XCTAssertEqual(info.planes.map(\.offset), [0, 640 * 480, 640 * 480 + 320 * 240])
        XCTAssertEqual(info.size, 640 * 480 * 3 / 2)
    }

    func testVideoInfoPackedFormatsFollowAlignment() throws {
        let rgbx = try XCTUnwrap(try Caps("video/x-raw, format=RGBx, width=640, height=480, framerate=30/1").videoInfo)
        XCTAssertEqual(rgbx.planes, [VideoInfo.Plane(stride: 2560, offset: 0)])
        XCTAssertEqual(rgbx.size, 2560 * 480)
        // Rows of 3-byte pixels are padded to a multiple of 4 bytes: 5 pixels take 16 bytes, not 15.
        let rgb = try XCTUnwrap(try Caps("video/x-raw, format=RGB, width=5, height=2, framerate=1/1").videoInfo)
        XCTAssertEqual(rgb.planes.map(\.stride), [16])
        XCTAssertEqual(rgb.size, 32)
    }

    func testVideoInfoNeedsFixedRawVideo() throws {
        XCTAssertNil(try Caps("video/x-raw, format={ I420, RGBx }, width=640, height=480").videoInfo)
        XCTAssertNil(try Caps("audio/x-raw, format=S16LE, rate=48000, channels=2, layout=interleaved").videoInfo)
    }

    func testAudioInfo() throws {
        let stereo = try XCTUnwrap(try Caps("audio/x-raw, format=S16LE, rate=48000, channels=2, layout=interleaved").audioInfo)
        XCTAssertEqual(stereo.format, "S16LE")
        XCTAssertEqual(stereo.rate, 48000)
        XCTAssertEqual(stereo.channels, 2)
        XCTAssertEqual(stereo.bytesPerFrame, 4)
        let mono = try XCTUnwrap(try Caps("audio/x-raw, format=F32LE, rate=44100, channels=1, layout=interleaved").audioInfo)
        XCTAssertEqual(mono.format, "F32LE")
        XCTAssertEqual(mono.rate, 44100)
        XCTAssertEqual(mono.bytesPerFrame, 4)
        XCTAssertNil(try Caps("video/x-raw, format=I420, width=2, height=2").audioInfo)
        XCTAssertNil(try Caps("audio/x-raw, format=S16LE, rate=[ 8000, 48000 ], channels=1, layout=interleaved").audioInfo)
    }
}
