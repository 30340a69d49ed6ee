@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import PipcamTestSupport
import XCTest

final class DescriptionTests: XCTestCase {
    func testDemoDescriptionBecomesTwoCamerasAndTwoMicrophones() throws {
        let description = try PipelineDescription.load(path: "\(repository)/pipelines/demo.yaml")
        let (configuration, notes) = try description.configuration(devices: [], outputPath: "/tmp/demo.mkv")
        XCTAssertEqual(configuration.inputs.map(\.id), ["front", "side", "voice", "room"])
        XCTAssertEqual(configuration.connections.count, 4)
        XCTAssertEqual(configuration.layout.mainInputID, "front")
        XCTAssertTrue(notes.isEmpty)
    }

    /// The sync camera and microphone: drawn black and silent by GStreamer, their flashes and beeps put on
    /// the pads named; any other word for a microphone is still asked to be a frequency.
    func testSyncCameraAndMicrophoneArePlannedWithTheirSignals() throws {
        let (configuration, _) = try PipelineDescription.load(path: "\(repository)/pipelines/sync.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.inputs.map(\.device.source), [.testPattern(pattern: "sync", label: "flash", moving: true),
                                                                  .testPattern(pattern: "ball", label: "side", moving: true), .syncBeeps, .tone(frequency: 440)])
        let plan = try GraphBuilder.plan(for: configuration)
        XCTAssertEqual(Set(plan.syncSignals.map { "\($0.key.name) \($0.value)" }), ["cam0-caps flash", "mic2-beeps beep(late: 0.0 seconds)"])
        XCTAssertTrue(plan.nodes.contains { $0.name == "cam0-src" && $0.properties.contains { $0.0 == "pattern" && $0.1 == .string("black") } })
        XCTAssertThrowsError(try PipelineDescription.parse("microphones:\n  - name: m\n    synthetic: beep\n", file: "t.yaml")) { error in
            XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            XCTAssertTrue("\(error)".contains("t.yaml:3:16"), "\(error)")
        }
    }

    /// `controls:` under a device camera, in the order written, and `match:` as a list or one line.
    func testControlsAndMatchAreReadWithTheirLimits() throws {
        let text = """
        cameras:
          - name: front
            device: /dev/video0
            controls:
              exposure: 1/60
              white-balance: 4500K
              torch: on
          - name: side
            device: /dev/video1
        match: exposure, white-balance
        """
        let description = try PipelineDescription.parse(text, file: "t.yaml")
        XCTAssertEqual(description.cameras[0].controls, [.init(name: "exposure", value: "1/60"), .init(name: "white-balance", value: "4500K"),
                                                         .init(name: "torch", value: "on")])
        XCTAssertEqual(description.matchedControls, ["exposure", "white-balance"])
        let list = try PipelineDescription.parse(text.replacingOccurrences(of: "match: exposure, white-balance", with: "match: [brightness]"), file: "t.yaml")
        XCTAssertEqual(list.matchedControls, ["brightness"])
        for (bad, said) in [
            ("cameras:\n  - name: a\n    synthetic: ball\n    controls: {zoom: 1}\n", "t.yaml:4:15: cameras[0].controls: controls are a device camera's"),
            ("cameras:\n  - name: a\n    controls: {\"zo om\": 1}\n", "t.yaml:3:25: cameras[0].controls.zo om: 'zo om' is not a control's name"),
            ("cameras:\n  - name: a\nmatch: exposure\n", "t.yaml:3:8: match: match keeps a second camera at the first camera's values: give two cameras"),
        ] {
            XCTAssertThrowsError(try PipelineDescription.parse(bad, file: "t.yaml")) { error in
                XCTAssertTrue("\(error)".contains(said), "\(error)")
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            }
        }
    }

    /// Wherever pipcam runs, a description records beside itself, as its clips are read from beside it.
    /// A device longer than any path is one line that quotes 40 characters of it, not the whole.
    func testAnEndlessDevicePathIsRefusedWithoutEchoingIt() {
        let path = "/dev/" + String(repeating: "v", count: 100_000)
        XCTAssertThrowsError(try PipelineDescription.parse("cameras:\n  - name: c\n    device: \(path)\n", file: "t.yaml")) { error in
            let line = "\(error)"
            XCTAssertTrue(line.hasPrefix("t.yaml:3:13: "), line)
            XCTAssertTrue(line.contains("at most 4096 bytes"), line)
            XCTAssertLessThan(line.count, 200, line)
        }
    }

    func testTheOutputFileIsRelativeToTheDescriptionsFolder() throws {
        XCTAssertEqual(try PipelineDescription.parse("output:\n  file: talks/out.mkv\n", file: "/srv/rig/lecture.yaml").outputPath, "/srv/rig/talks/out.mkv")
        XCTAssertEqual(try PipelineDescription.parse("output:\n  file: /data/out.mkv\n", file: "/srv/rig/lecture.yaml").outputPath, "/data/out.mkv")
        XCTAssertThrowsError(try PipelineDescription.parse("output:\n  file: ''\n", file: "/srv/rig/lecture.yaml")) { error in
            XCTAssertTrue("\(error)".contains("lecture.yaml:2:9") && "\(error)".contains("path is empty"), "\(error)")
        }
    }

    func testFastReplayIsForFileCamerasOnly() throws {
        let clip = try Paths.scratch("fast-replay") + "/clip.y4m"
        XCTAssertTrue(FileManager.default.createFile(atPath: clip, contents: nil))
        let clips = "replay: fast\ncameras:\n  - name: a\n    file: \(clip)\n  - name: b\n    file: \(clip)\n"
        let (configuration, _) = try PipelineDescription.parse(clips, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.replay, .fast)
        let plan = try GraphBuilder.plan(for: configuration)
        XCTAssertFalse(plan.nodes.contains { $0.factory == .clocksync }, "nothing paces a fast replay")
        XCTAssertFalse(plan.nodes.contains { $0.properties.contains { $0.0 == "leaky" } }, "nothing drops in a fast replay")
        let mixed = clips + "microphones:\n  - name: m\n    synthetic: 440\n"
        XCTAssertThrowsError(try PipelineDescription.parse(mixed, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")) { error in
            XCTAssertTrue("\(error)".contains("replay fast needs every input to be a file camera, and 'm' is live"), "\(error)")
        }
    }

    func testACameraFormatWithoutARateRunsAtTheSessionsOrTheNearestTheDeviceOffers() throws {
        let synthetic = "frame-rate: 25\ncameras:\n  - name: a\n    synthetic: smpte\n    format: {width: 1440, height: 810}\n"
        let (drawn, _) = try PipelineDescription.parse(synthetic, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(try GraphBuilder.plan(for: drawn).cameraModes["a"]?.description, "1440x810 @ 25 fps")
        let real = "frame-rate: 25\ncameras:\n  - name: a\n    device: /dev/video8\n    format: {width: 640, height: 480}\n"
        let camera = CaptureDevice(id: "/dev/video8", name: "C", mediaType: .video, source: .v4l2(path: "/dev/video8"),
                                   formats: [VideoFormat(pixelFormat: "YUY2", width: 640, height: 480, frameRates: [30, 15])])
        let (configuration, _) = try PipelineDescription.parse(real, file: "t.yaml").configuration(devices: [camera], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(try GraphBuilder.plan(for: configuration).cameraModes["a"]?.description, "YUY2 640x480 @ 30 fps")
    }

    func testRealDevicesAreMatchedByIdPositionAndOrder() throws {
        let text = "cameras:\n  - name: a\n    position: back\n  - name: b\n    device: /dev/video9\nmicrophones:\n  - name: m\n"
        let description = try PipelineDescription.parse(text, file: "t.yaml")
        let devices = [
            CaptureDevice(id: "/dev/v4l/by-id/front-cam", name: "F", mediaType: .video, position: .front, source: .v4l2(path: "/dev/video9")),
            CaptureDevice(id: "/dev/v4l/by-id/back-cam", name: "B", mediaType: .video, position: .back, source: .v4l2(path: "/dev/video8")),
            CaptureDevice(id: "alsa:Mic,0", name: "M", mediaType: .audio, source: .alsa(device: "hw:1,0")),
        ]
        let (configuration, _) = try description.configuration(devices: devices, outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.inputs.map(\.device.source), [.v4l2(path: "/dev/video8"), .v4l2(path: "/dev/video9"), .alsa(device: "hw:1,0")])
        XCTAssertThrowsError(try description.configuration(devices: Array(devices.prefix(1)), outputPath: "/tmp/x.mkv")) { error in
            XCTAssertTrue("\(error)".contains("t.yaml:2:5: cameras[0]: no camera matches position back (present: /dev/v4l/by-id/front-cam)"), "\(error)")
        }
    }

    func testANamedDeviceIsNotTakenByAnAutoEntryListedBeforeIt() throws {
        let text = "cameras:\n  - name: a\n  - name: b\n    device: /dev/video8\nlayout:\n  main: b\n"
        let devices = [8, 9].map { CaptureDevice(id: "/dev/video\($0)", name: "C\($0)", mediaType: .video, source: .v4l2(path: "/dev/video\($0)")) }
        let (configuration, _) = try PipelineDescription.parse(text, file: "t.yaml").configuration(devices: devices, outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.inputs.map(\.id), ["a", "b"])
        XCTAssertEqual(configuration.inputs.map(\.device.source), [.v4l2(path: "/dev/video9"), .v4l2(path: "/dev/video8")])
    }

    /// An absent optional camera waits in its place for the recording to take it when it is plugged in.
    func testAnAbsentOptionalCameraWaitsInItsPlace() throws {
        let text = "cameras:\n  - name: a\n    synthetic: smpte\n  - name: b\n    device: /dev/video7\n    optional: true\nlayout:\n  main: b\n"
        let (configuration, notes) = try PipelineDescription.parse(text, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.inputs.map(\.id), ["a", "b"])
        XCTAssertEqual(configuration.inputs.map(\.isOptional), [false, true])
        XCTAssertEqual(configuration.layout.mainInputID, "b")
        XCTAssertEqual(notes, ["b: /dev/video7 is not present; it joins the recording when it is plugged in"])
        let plan = try configuration.graphPlan()
        XCTAssertEqual(plan.keptSources.map(\.startsDetached), [true])
        XCTAssertNil(plan.node("cam1-src"), "the graph starts without the camera's source")
        XCTAssertNotNil(plan.node("cam1-wait-src"), "its place shows it is waited for")
    }

    /// When a lost device ends the recording, an absent optional camera is left out.
    func testAnAbsentOptionalMainCameraLeavesTheFirstFullFrameWhenLossStops() throws {
        let text = "on-device-loss: stop\ncameras:\n  - name: a\n    synthetic: smpte\n  - name: b\n    device: /dev/video7\n    optional: true\nlayout:\n  main: b\n"
        let (configuration, notes) = try PipelineDescription.parse(text, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.inputs.map(\.id), ["a"])
        XCTAssertNil(configuration.layout.mainInputID)
        XCTAssertEqual(notes, ["layout.main: 'b' is not present; the first camera is shown full frame"])
    }

    func testALSANamesBecomeIds() throws {
        XCTAssertEqual(DeviceDiscovery.alsaIdentity("plughw:7,1", displayName: "x").id, "alsa:7,1")
        XCTAssertEqual(DeviceDiscovery.alsaIdentity("hw:7,0", displayName: "x").id, "alsa:7,0")
        // A card by its number or by its name (as `arecord -L` names it): the same id.
        let cards = try Paths.scratch("asound")
        try FileManager.default.createDirectory(atPath: "\(cards)/card3", withIntermediateDirectories: true)
        try "Loopback\n".write(toFile: "\(cards)/card3/id", atomically: true, encoding: .utf8)
        XCTAssertEqual(CaptureDevice.alsaID(of: "hw:3,1", cards: cards), "alsa:Loopback,1")
        XCTAssertEqual(CaptureDevice.alsaID(of: "plughw:Loopback,1", cards: cards), "alsa:Loopback,1")
        XCTAssertEqual(CaptureDevice.alsaID(of: "hw:Loopback,1,0", cards: cards), "alsa:Loopback,1,0")
        XCTAssertNil(CaptureDevice.alsaID(of: "default", cards: cards))
        XCTAssertNil(CaptureDevice.alsaID(of: "pulse:x", cards: cards))
    }

    private var repository: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }
}
import Foundation

/// `device: default` for a microphone: the desktop's default input, when a sound server answers.
final class DesktopDefaultInputTests: XCTestCase {
    func testASoundServerIsFoundByItsSocketOrPulseServer() throws {
        XCTAssertTrue(SoundServer.isRunning(environment: ["PULSE_SERVER": "unix:/x"]))
        XCTAssertFalse(SoundServer.isRunning(environment: [:]))
        let folder = NSTemporaryDirectory() + "pipcam-tests/runtime-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(folder)/pulse", withIntermediateDirectories: true)
        XCTAssertFalse(SoundServer.isRunning(environment: ["XDG_RUNTIME_DIR": folder]), "no socket yet")
        _ = FileManager.default.createFile(atPath: "\(folder)/pulse/native", contents: Data())
        XCTAssertFalse(SoundServer.isRunning(environment: ["XDG_RUNTIME_DIR": folder]), "a plain file is not a server")
    }

    func testDefaultIsTheDesktopsInputForMicrophonesOnly() throws {
        let folder = NSTemporaryDirectory() + "pipcam-tests/default-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/d.yaml"
        try "cameras:\n  - name: a\n    device: default\nmicrophones:\n  - name: voice\n    device: default\n".write(toFile: path, atomically: true, encoding: .utf8)
        let description = try PipelineDescription.load(path: path)
        XCTAssertEqual(description.cameras.first?.spec, .device("default"))
        XCTAssertEqual(description.microphones.first?.spec, .desktopDefault)
    }
}
