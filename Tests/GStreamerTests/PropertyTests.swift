import XCTest
@testable import GStreamer

/// Properties are typed by their GParamSpec: Swift values are checked against it, and mistakes are
/// thrown errors naming the element, the property and the expected type (never a GLib critical).
final class PropertyTests: XCTestCase {
    // MARK: values that fit

    func testIntegers() throws {
        let source = try Element.make("videotestsrc", name: "src", properties: ["num-buffers": 5])
        XCTAssertEqual(try source.property("num-buffers"), .int(5))
        try source.set("num-buffers", Int32(-1))
        XCTAssertEqual(try source.property("num-buffers").intValue, -1)
        try source.set("num-buffers", fromString: "42")
        XCTAssertEqual(try source.property("num-buffers"), .int(42))
    }

    func testUnsignedIntegers() throws {
        let sink = try Element.make("appsink", name: "sink", properties: ["max-buffers": UInt32(7)])
        XCTAssertEqual(try sink.property("max-buffers"), .uint(7))
        try sink.set("max-buffers", 3)
        XCTAssertEqual(try sink.property("max-buffers"), .uint(3))
        let source = try Element.make("videotestsrc", properties: ["foreground-color": UInt32(0xFFFF_0000)])
        XCTAssertEqual(try source.property("foreground-color"), .uint(0xFFFF_0000))
    }

    func testBooleans() throws {
        let source = try Element.make("videotestsrc", properties: ["is-live": true])
        XCTAssertEqual(try source.property("is-live"), .bool(true))
        try source.set("is-live", fromString: "false")
        XCTAssertEqual(try source.property("is-live").boolValue, false)
    }

    func testDoubles() throws {
        let source = try Element.make("audiotestsrc", properties: ["freq": 880.0, "volume": 0.25])
        XCTAssertEqual(try source.property("freq"), .double(880))
        XCTAssertEqual(try source.property("volume").doubleValue, 0.25)
        try source.set("freq", 1000)
        XCTAssertEqual(try source.property("freq"), .double(1000), "an integer is accepted for a double")
    }

    func testStrings() throws {
        let sink = try Element.make("filesink", properties: ["location": "/tmp/pipcam test ünïcode.mkv"])
        XCTAssertEqual(try sink.property("location"), .string("/tmp/pipcam test ünïcode.mkv"))
    }

    func testEnumsByNick() throws {
        let source = try Element.make("videotestsrc", properties: ["pattern": "ball"])
        XCTAssertEqual(try source.property("pattern"), .string("ball"))
        try source.set("pattern", fromString: "solid-color")
        XCTAssertEqual(try source.property("pattern"), .string("solid-color"))
        try source.set("pattern", 4)
        XCTAssertEqual(try source.property("pattern"), .string("red"), "an enum can be set by number too")

        let encoder = try Element.make("x264enc", name: "encoder", properties: ["speed-preset": "ultrafast"])
        XCTAssertEqual(try encoder.property("speed-preset"), .string("ultrafast"))
    }

    func testFlagsByNickReadBackAsNicks() throws {
        let encoder = try Element.make("x264enc", name: "encoder")
        XCTAssertEqual(try encoder.property("tune"), .string("0"), "no flag set, and none named for 0")
        try encoder.set("tune", "zerolatency")
        XCTAssertEqual(try encoder.property("tune"), .string("zerolatency"))
        try encoder.set("tune", fromString: "fastdecode+zerolatency")
        XCTAssertEqual(try encoder.property("tune"), .string("fastdecode+zerolatency"))
        try encoder.set("tune", UInt32(1))
        XCTAssertEqual(try encoder.property("tune"), .string("stillimage"))
        // What is read back can be set again.
        let readBack = try encoder.property("tune")
        try encoder.set("tune", readBack)
        XCTAssertEqual(try encoder.property("tune"), readBack)
        try encoder.set("tune", "0")
        XCTAssertEqual(try encoder.property("tune"), .string("0"))
    }

    func testCapsProperties() throws {
        let caps = try Caps("video/x-raw,format=RGBx,width=64,height=48")
        let filter = try Element.make("capsfilter", name: "filter", properties: ["caps": caps])
        XCTAssertEqual(try filter.property("caps"), .caps(caps))
        try filter.set("caps", "audio/x-raw,rate=48000")
        XCTAssertEqual(try filter.property("caps"), .caps(try Caps("audio/x-raw,rate=48000")))

        let sink = try AppSink(name: "sink", caps: caps)
        guard case .caps(let readBack) = try sink.property("caps") else { return XCTFail("caps expected") }
        XCTAssertEqual(readBack.description, "video/x-raw, format=(string)RGBx, width=(int)64, height=(int)48")
    }

    func testFractions() throws {
        let parser = try Element.make("rawvideoparse", properties: ["framerate": Fraction(30000, 1001)])
        XCTAssertEqual(try parser.property("framerate"), .fraction(30000, 1001))
        try parser.set("framerate", fromString: "25/1")
        XCTAssertEqual(try parser.property("framerate"), .fraction(25, 1))
        try parser.set("framerate", "50/1")
        XCTAssertEqual(try parser.property("framerate"), .fraction(50, 1))
    }

    func testHasProperty() throws {
        let source = try Element.make("videotestsrc")
        XCTAssertTrue(source.hasProperty("pattern"))
        XCTAssertFalse(source.hasProperty("patern"))
    }

    // MARK: mistakes

    func testUnknownProperty() throws {
        let source = try Element.make("videotestsrc", name: "camera0")
        XCTAssertThrowsError(try source.set("patern", "ball")) { error in
            XCTAssertEqual(error as? GStreamerError, .unknownProperty(object: "camera0", property: "patern"))
            XCTAssertEqual("\(error)", "'camera0' has no property 'patern'")
        }
        XCTAssertThrowsError(try source.property("patern"))
        XCTAssertThrowsError(try Element.make("videotestsrc", name: "camera1", properties: ["no-such": 1])) { error in
            XCTAssertEqual(error as? GStreamerError, .unknownProperty(object: "camera1", property: "no-such"))
        }
    }

    func testWrongType() throws {
        let source = try Element.make("videotestsrc", name: "camera0")
        XCTAssertThrowsError(try source.set("num-buffers", true)) { error in
            XCTAssertEqual(error as? GStreamerError,
                           .wrongPropertyType(object: "camera0", property: "num-buffers", expected: "gint", given: "a Bool"))
            XCTAssertEqual("\(error)", "property 'num-buffers' of 'camera0' expects gint, not a Bool")
        }
        XCTAssertThrowsError(try source.set("is-live", "yes")) { error in
            XCTAssertEqual(error as? GStreamerError,
                           .wrongPropertyType(object: "camera0", property: "is-live", expected: "gboolean", given: "a String"))
        }
        XCTAssertThrowsError(try source.set("pattern", 2.5)) { error in
            XCTAssertTrue("\(error)".contains("expects GstVideoTestSrcPattern, not a Double"), "\(error)")
        }
        XCTAssertEqual(try source.property("num-buffers"), .int(-1), "a refused value leaves the property alone")
    }

    func testOutOfRange() throws {
        let source = try Element.make("videotestsrc", name: "camera0")
        XCTAssertThrowsError(try source.set("num-buffers", -5)) { error in
            XCTAssertEqual(error as? GStreamerError,
                           .invalidPropertyValue(object: "camera0", property: "num-buffers", expected: "gint", value: "-5"))
            XCTAssertEqual("\(error)", "property 'num-buffers' of 'camera0' expects gint; '-5' is not valid")
        }
        XCTAssertThrowsError(try source.set("num-buffers", Int64.max)) { error in
            XCTAssertTrue("\(error)".contains("expects gint"), "\(error)")
        }
        XCTAssertThrowsError(try source.set("foreground-color", -1)) { error in
            XCTAssertTrue("\(error)".contains("'foreground-color' of 'camera0' expects guint"), "\(error)")
        }
        let tone = try Element.make("audiotestsrc", name: "tone")
        XCTAssertThrowsError(try tone.set("volume", 2.0)) { error in
            XCTAssertEqual(error as? GStreamerError,
                           .invalidPropertyValue(object: "tone", property: "volume", expected: "gdouble", value: "2.0"))
        }
        XCTAssertEqual(try tone.property("volume"), .double(0.8), "a refused value leaves the property alone")
        XCTAssertThrowsError(try source.set("pattern", 999)) { error in
            XCTAssertTrue("\(error)".contains("expects GstVideoTestSrcPattern"), "\(error)")
        }
    }

    func testUnparsableString() throws {
        let source = try Element.make("videotestsrc", name: "camera0")
        XCTAssertThrowsError(try source.set("pattern", "plaid")) { error in
            XCTAssertEqual(error as? GStreamerError, .invalidPropertyValue(
                object: "camera0", property: "pattern", expected: "GstVideoTestSrcPattern", value: "plaid"))
            XCTAssertEqual("\(error)", "property 'pattern' of 'camera0' expects GstVideoTestSrcPattern; 'plaid' is not valid")
        }
        XCTAssertThrowsError(try source.set("num-buffers", fromString: "many")) { error in
            XCTAssertEqual(error as? GStreamerError,
                           .invalidPropertyValue(object: "camera0", property: "num-buffers", expected: "gint", value: "many"))
        }
        let filter = try Element.make("capsfilter", name: "filter")
        XCTAssertThrowsError(try filter.set("caps", "video/x-raw,width=")) { error in
            XCTAssertTrue("\(error)".contains("'caps' of 'filter' expects GstCaps"), "\(error)")
        }
        let encoder = try Element.make("x264enc", name: "encoder")
        XCTAssertThrowsError(try encoder.set("tune", "zerolatency+warp-speed")) { error in
            XCTAssertTrue("\(error)".contains("'tune' of 'encoder' expects GstX264EncTune"), "\(error)")
        }
    }

    func testReadOnlyProperty() throws {
        let sink = try AppSink(name: "sink")
        XCTAssertThrowsError(try sink.set("eos", true)) { error in
            XCTAssertEqual(error as? GStreamerError, .readOnlyProperty(object: "sink", property: "eos"))
        }
    }

    func testConstructOnlyPropertyCannotBeSetLater() throws {
        let source = try Element.make("videotestsrc", name: "camera0")
        let pad = try source.staticPad("src")
        XCTAssertEqual(try pad.property("direction"), .string("src"))
        XCTAssertThrowsError(try pad.set("direction", "sink")) { error in
            XCTAssertEqual(error as? GStreamerError, .readOnlyProperty(object: "camera0:src", property: "direction"))
        }
    }

    func testWriteOnlyPropertyCannotBeRead() throws {
        let injector = try Element.make("taginject", name: "tags", properties: ["tags": "title=\"pipcam\""])
        XCTAssertThrowsError(try injector.property("tags")) { error in
            XCTAssertEqual(error as? GStreamerError, .writeOnlyProperty(object: "tags", property: "tags"))
            XCTAssertEqual("\(error)", "property 'tags' of 'tags' is write-only")
        }
    }
}
