@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import GStreamer
import PipcamTestSupport
import XCTest

/// The parts of the model that decide without running anything: layout, formats, checks, the graph plan.
final class ModelTests: XCTestCase {
    func testPictureInPictureRegions() {
        let layout = Layout(kind: .pictureInPicture, corner: .bottomRight, insetSize: 0.3, margin: 0.03)
        let regions = layout.regions(width: 1280, height: 720)
        XCTAssertEqual(regions.main, Region(x: 0, y: 0, width: 1280, height: 720, zOrder: 0))
        XCTAssertEqual(regions.inset, Region(x: 1280 - 38 - 384, y: 720 - 38 - 216, width: 384, height: 216, zOrder: 1))
        let topLeft = Layout(kind: .pictureInPicture, corner: .topLeft).regions(width: 1280, height: 720).inset
        XCTAssertEqual([topLeft.x, topLeft.y], [38, 38])
        let halves = Layout(kind: .sideBySide).regions(width: 1280, height: 720)
        XCTAssertEqual([halves.main.width, halves.inset.x, halves.inset.width], [640, 640, 640])
        let stacked = Layout(kind: .topBottom).regions(width: 1280, height: 720)
        XCTAssertEqual([stacked.main.height, stacked.inset.y], [360, 360])
    }

    func testFormatChoiceNeverPicksAHugeSlowMode() {
        let camera = CaptureDevice(id: "vivid", name: "vivid", mediaType: .video, source: .v4l2(path: "/dev/video0"), formats: Fixtures.vividFormats)
        let main = FormatChooser.choose(for: camera, width: 1280, height: 720, frameRate: 30)
        XCTAssertGreaterThanOrEqual(main.frameRate, 24, "fluid motion first: \(main)")
        XCTAssertEqual([main.width, main.height], [640, 480], "the largest fluid mode: \(main)")
        let inset = FormatChooser.choose(for: camera, width: 384, height: 216, frameRate: 30)
        XCTAssertEqual(inset, CaptureMode(pixelFormat: "YUY2", width: 640, height: 360, frameRate: 30), "the smallest mode that covers the inset at the rate")
        let synthetic = FormatChooser.choose(for: Fixtures.side, width: 384, height: 216, frameRate: 30)
        XCTAssertEqual(synthetic, CaptureMode(pixelFormat: nil, width: 384, height: 216, frameRate: 30), "captured at the size it is shown")
    }

    /// A camera back from a loss is asked for its mode when it offers it, else for the nearest of the same
    /// kind: vivid's HDMI input (any size, 60 fps only) standing in for its webcam input.
    func testACameraBackInOtherModesIsAskedForTheNearest() throws {
        let asked = CaptureMode(pixelFormat: "YUY2", width: 320, height: 180, frameRate: 15)
        XCTAssertEqual(FormatChooser.nearest(to: asked, among: Fixtures.vividFormats), asked, "its own mode when offered")
        let hdmi = try Caps("video/x-raw, format=(string){ UYVY, YUY2 }, width=(int)[ 16, 16384 ], height=(int)[ 16, 8640 ], framerate=(fraction)60/1; "
                            + "image/jpeg, width=(int)[ 16, 16384 ], height=(int)[ 16, 8640 ], framerate=(fraction)60/1")
        let offered = DeviceDiscovery.formats(hdmi, near: asked)
        XCTAssertEqual(FormatChooser.nearest(to: asked, among: offered), CaptureMode(pixelFormat: "YUY2", width: 320, height: 180, frameRate: 60),
                       "the same size and pixel format at the rate it has")
        XCTAssertEqual(DeviceDiscovery.formats(hdmi).first.map { [$0.width, $0.height] }, [16384, 8640], "a listing still shows the largest")
        let jpeg = CaptureMode(pixelFormat: "MJPG", width: 1280, height: 720, frameRate: 30)
        XCTAssertEqual(FormatChooser.nearest(to: jpeg, among: Fixtures.vividFormats), nil, "raw modes do not serve a camera decoded from MJPEG")
        let other = FormatChooser.nearest(to: CaptureMode(pixelFormat: "UYVY", width: 640, height: 480, frameRate: 30), among: Fixtures.vividFormats)
        XCTAssertEqual(other, CaptureMode(pixelFormat: "YUY2", width: 640, height: 480, frameRate: 25),
                       "by the start's concerns: a fluid rate, then the size, then the rate closest to the asked")
    }

    func testTwoCamerasShareOneFluidFrameRate() throws {
        let vivid = { (index: Int) in
            CaptureDevice(id: "vivid\(index)", name: "vivid", mediaType: .video, source: .v4l2(path: "/dev/video\(index)"), formats: Fixtures.vividFormats)
        }
        let plan = try Fixtures.configuration(path: "/tmp/x.mkv", cameras: [vivid(0), vivid(1)], microphones: []).graphPlan()
        XCTAssertEqual(plan.cameraModes["vivid0"], CaptureMode(pixelFormat: "YUY2", width: 640, height: 480, frameRate: 25))
        XCTAssertEqual(plan.cameraModes["vivid1"], CaptureMode(pixelFormat: "YUY2", width: 640, height: 360, frameRate: 25))
        XCTAssertEqual(plan.frameRate, 25, "the picture runs at the rate both cameras deliver")
    }

    /// Each output rules on its own connections (`TakesConnections`): a data output takes one input of its
    /// kind, a photo one camera per connection.
    func testEachOutputSaysWhatItTakes() {
        var configuration = Fixtures.configuration(path: "/tmp/x.mkv")
        configuration.videoDataOutputs.append(VideoDataOutput(id: "frames"))
        configuration.audioDataOutputs.append(AudioDataOutput(id: "samples"))
        configuration.attachPhotoOutput(PhotoOutput())
        let front = DeviceInput(device: Fixtures.front).port, side = DeviceInput(device: Fixtures.side).port
        let voice = DeviceInput(device: Fixtures.voice).port
        XCTAssertEqual(configuration.reasonCannotAdd(Connection(from: voice, to: "frames")), "video data output 'frames' takes a camera port")
        XCTAssertNil(configuration.reasonCannotAdd(Connection(from: front, to: "frames")))
        configuration.connections.append(Connection(from: front, to: "frames"))
        XCTAssertEqual(configuration.reasonCannotAdd(Connection(from: side, to: "frames")), "video data output 'frames' takes exactly one camera")
        XCTAssertEqual(configuration.reasonCannotAdd(Connection(from: front, to: "samples")), "audio data output 'samples' takes a microphone port")
        XCTAssertNil(configuration.reasonCannotAdd(Connection(from: voice, to: "samples")))
        XCTAssertEqual(configuration.reasonCannotAdd(Connection(inputPorts: [front, side], outputID: "photo")),
                       "the photo output takes one camera per connection")
        XCTAssertEqual(configuration.reasonCannotAdd(Connection(from: front, to: "photo")),
                       "\(front) is already connected to 'photo'", "what every output refuses is said the same for each")
    }

    func testCanAddChecksSayWhyNot() {
        var configuration = Fixtures.configuration(path: "/tmp/x.mkv")
        XCTAssertEqual(configuration.reasonCannotAdd(DeviceInput(device: Fixtures.front)), "input 'front' is already in the session")
        let ghost = Connection(from: InputPort(inputID: "ghost", mediaType: .video), to: "movie")
        XCTAssertEqual(configuration.reasonCannotAdd(ghost), "no input 'ghost' in the session")
        let nowhere = Connection(from: DeviceInput(device: Fixtures.front).port, to: "preview")
        XCTAssertEqual(configuration.reasonCannotAdd(nowhere), "no output 'preview' in the session (outputs: movie)")
        configuration.inputs.append(DeviceInput(device: .toneMicrophone(id: "third", frequency: 300)))
        let rotatedSound = Connection(from: InputPort(inputID: "third", mediaType: .audio), to: "movie", rotation: .clockwise90)
        XCTAssertEqual(configuration.reasonCannotAdd(rotatedSound), "rotation and mirroring apply to video connections only")
        configuration.inputs.append(DeviceInput(device: .testPatternCamera(id: "third-camera")))
        let thirdCamera = Connection(from: InputPort(inputID: "third-camera", mediaType: .video), to: "movie")
        XCTAssertEqual(configuration.reasonCannotAdd(thirdCamera), "the movie file already composes two cameras")
        let impossible = DeviceInput(device: .testPatternCamera(id: "big"), activeFormat: VideoFormat(pixelFormat: "I420", width: 100_000, height: 100_000, frameRates: [30]))
        XCTAssertTrue(configuration.reasonCannotAdd(impossible)?.contains("cannot deliver 100000x100000") == true)
        let vivid = CaptureDevice(id: "vivid", name: "vivid", mediaType: .video, source: .v4l2(path: "/dev/video0"), formats: Fixtures.vividFormats)
        let wrongRate = DeviceInput(device: vivid, activeFormat: Fixtures.vividFormats[3], activeFrameRate: 30)
        XCTAssertTrue(configuration.reasonCannotAdd(wrongRate)?.contains("not 30 fps") == true)
    }

    func testPlanScalesInTheCompositorAndCapturesTheInsetSmall() throws {
        let plan = try Fixtures.configuration(path: "/tmp/x.mkv").graphPlan()
        XCTAssertFalse(plan.nodes.contains { $0.factory == .videoscale }, "scaling happens in the compositor pads")
        XCTAssertEqual(plan.cameraModes["side"].map { [$0.width, $0.height] }, [384, 216])
        XCTAssertEqual(plan.cameraModes["front"].map { [$0.width, $0.height] }, [1280, 720])
        let insetPad = try XCTUnwrap(plan.links.first { $0.toPad == plan[input: "side"].compositorPad })
        XCTAssertEqual(insetPad.padProperties.first { $0.0 == "width" }?.1, .int(384))
        let liveQueues = plan.nodes.filter { $0.factory == .queue && $0.name.hasPrefix("cam") }
        XCTAssertFalse(liveQueues.isEmpty)
        XCTAssertTrue(liveQueues.allSatisfy { $0.properties.contains { $0.0 == "leaky" && $0.1 == .string("downstream") } })
        XCTAssertEqual(plan.muxPads, ["video_0", "audio_0", "audio_1", "audio_2"], "picture, mix, each microphone")
        XCTAssertFalse(plan.launchLine.contains("parse_launch"))
    }

    /// An error names the camera or microphone whose branch raised it; the elements every branch shares
    /// (the compositor, the mixer, the encoders of the picture and the mix) belong to none.
    func testEachBranchElementBelongsToItsInputAndSharedOnesToNone() throws {
        let plan = try Fixtures.configuration(path: "/tmp/x.mkv").graphPlan()
        let sources = plan.nodes.filter(\.factory.isSource).map(\.name)
        XCTAssertEqual(Set(sources.compactMap { plan.input(owning: $0) }), ["front", "side", "voice", "room"])
        XCTAssertEqual(plan.inputs.map(\.id), ["front", "side", "voice", "room"], "one record each, in the order added")
        XCTAssertEqual(sources.count, 4, "one source each")
        for shared in [plan.compositor?.name, plan.mixerName, plan.pictureEncoder?.name, plan.mux?.name] {
            let name = try XCTUnwrap(shared)
            XCTAssertNil(plan.input(owning: name), "\(name) is every branch's")
        }
        let frontElements = plan[input: "front"].elements
        XCTAssertTrue(frontElements.contains { plan.node($0)?.factory == .videoflip }, "the connection's flip is the camera's")
    }

    func testIsolatedTracksCaptureTheInsetWhole() throws {
        var configuration = Fixtures.configuration(path: "/tmp/x.mkv")
        configuration.movieFile?.isolatedCameraTracks = true
        let plan = try configuration.graphPlan()
        XCTAssertEqual(plan.cameraModes["side"].map { [$0.width, $0.height] }, [1280, 720])
        XCTAssertEqual(plan.muxPads, ["video_0", "audio_0", "audio_1", "audio_2", "video_1", "video_2"])
    }

    func testMirrorAndRotationMapToOneFlip() {
        let port = InputPort(inputID: "a", mediaType: .video)
        XCTAssertEqual(Connection(from: port, to: "m").videoDirection, .identity)
        XCTAssertEqual(Connection(from: port, to: "m", mirrored: true).videoDirection, .mirrored)
        XCTAssertEqual(Connection(from: port, to: "m", rotation: .clockwise90).videoDirection, .clockwise)
        XCTAssertEqual(Connection(from: port, to: "m", rotation: .upsideDown, mirrored: true).videoDirection, .upsideDownMirrored)
    }
}
