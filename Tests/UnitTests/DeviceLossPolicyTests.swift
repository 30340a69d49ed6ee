import Capture
@testable import CaptureGraph
@testable import pipcam
import PipcamTestSupport
import XCTest

/// What a recording does when a device is lost: how it is asked for, what the graph keeps ready for it,
/// and how an interruption is shown.
final class DeviceLossPolicyTests: XCTestCase {
    private static let cameras = """
        cameras:
          - name: front
            synthetic: smpte

        """

    func testADescriptionSaysWhetherTheRecordingGoesOnAndAfterHowLongACameraIsLost() throws {
        let (configuration, _) = try PipelineDescription.parse(Self.cameras + "on-device-loss: stop\ndevice-timeout: 3.5\n", file: "t.yaml")
            .configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.deviceLoss, DeviceLossPolicy(action: .stop, silenceTimeout: .milliseconds(3500)))
        let (defaults, _) = try PipelineDescription.parse(Self.cameras, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(defaults.deviceLoss.action, .continue, "a recording goes on by default")
        XCTAssertEqual(defaults.deviceLoss.silenceTimeout, .seconds(2))
    }

    func testBadPoliciesAreRefusedAtTheirLine() {
        for (text, expected) in [("on-device-loss: pause\n", "t.yaml:4:"), ("device-timeout: 0\n", "t.yaml:4:"), ("device-timeout: soon\n", "t.yaml:4:")] {
            XCTAssertThrowsError(try PipelineDescription.parse(Self.cameras + text, file: "t.yaml")) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(text): \(error)")
            }
        }
    }

    func testTheCommandLineOverridesTheDescriptionAndRefusesATimeoutOutOfRange() throws {
        let options = try SessionOptions.parse(["--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--on-device-loss", "stop", "--device-timeout", "1.5"])
        let configuration = try options.configuration(outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.deviceLoss, DeviceLossPolicy(action: .stop, silenceTimeout: .milliseconds(1500)))
        for value in ["0.1", "-1", "nan", "100"] {
            XCTAssertThrowsError(try SessionOptions.parse(["--device-timeout", value]), value)
        }
        XCTAssertThrowsError(try SessionOptions.parse(["--on-device-loss", "pause"]))
    }

    /// A camera device gets a switch where a slate can stand in, and its source is kept; drawn cameras and
    /// tones cannot be lost, and with `stop` nothing is kept.
    func testOnlyDevicesAreKeptAndOnlyWhenTheRecordingGoesOn() throws {
        var configuration = SessionConfiguration(recording: [
            CaptureDevice(id: "/dev/v4l/by-id/usb-cam", name: "USB camera", mediaType: .video, source: .v4l2(path: "/dev/video0")),
            .testPatternCamera(id: "drawn"),
            CaptureDevice(id: "mic", name: "Card", mediaType: .audio, source: .alsa(device: "hw:1")),
            .toneMicrophone(id: "tone", frequency: 440),
        ], to: MovieFileOutput(path: "/tmp/x.mkv"))
        let plan = try GraphBuilder.plan(for: configuration)
        XCTAssertEqual(plan.keptSources.map(\.inputID), ["/dev/v4l/by-id/usb-cam", "mic"])
        XCTAssertNotNil(plan.keptSources[0].selector)
        XCTAssertNil(plan.keptSources[1].selector, "a microphone has no slate: the mixers carry silence")
        XCTAssertEqual(plan.keptSources[0].end.name, "cam0-queue", "the recording's end goes in after the switch")

        configuration.deviceLoss.action = .stop
        let stopping = try GraphBuilder.plan(for: configuration)
        XCTAssertTrue(stopping.keptSources.isEmpty)
        XCTAssertFalse(stopping.nodes.contains { $0.factory == .inputSelector })
    }

    /// Every rung of the throttle ladder is made live on two webcams kept through a loss: a slate's text,
    /// sized to its camera, follows the camera's smaller capture in place (it once made the first rung
    /// "change the graph's structure", and throttling stopped on every machine with real cameras).
    func testEveryThrottleRungOfKeptWebcamsIsMadeLive() throws {
        let webcams = ["/dev/video0", "/dev/video1"].map { node in
            CaptureDevice(id: node, name: node, mediaType: .video, source: .v4l2(path: node), formats: Fixtures.vividFormats)
        }
        var configuration = SessionConfiguration(recording: webcams, to: MovieFileOutput(path: "/tmp/x.mkv"), preset: .hd720)
        let full = try GraphBuilder.plan(for: configuration)
        XCTAssertEqual(full.keptSources.count, 2)
        let ladder = ThrottleLadder(frameRate: full.frameRate)
        XCTAssertGreaterThan(ladder.rungs.count, 2)
        for rung in ladder.rungs.dropFirst() {
            configuration.throttle = rung.settings
            let throttled = try GraphBuilder.plan(for: configuration)
            XCTAssertEqual(throttled.structureKey, full.structureKey, "rung '\(rung.change)'")
        }
        configuration.throttle = ladder.rungs[1].settings
        let slates = full.keptSources.compactMap { $0.slate?.text.name }
        XCTAssertEqual(slates.count, 2)
        let fonts = { (plan: GraphPlan) in slates.map { name in plan.node(name)?.properties.first { $0.0 == "font-desc" }?.1 } }
        XCTAssertNotEqual(fonts(try GraphBuilder.plan(for: configuration)), fonts(full), "the inset's slate text is smaller")
    }

    func testTheStatusLineAndTheSummaryNameWhatIsAway() {
        var line = StatusLine()
        line.isTerminal = false
        var status = LiveStatus(elapsed: .seconds(10), frames: [("front", 300), ("side", 200)], dropped: 0, fileSize: 1 << 20)
        status.away = [("side", .seconds(7))]
        XCTAssertEqual(line.text(for: status), "recording 00:10.0  front 30 fps, side 20 fps  side lost 3 s  dropped 0  1.0 MiB\n")

        var summary = RecordingSummary(path: "x.mkv", duration: .seconds(10), cameras: [], droppedPictures: 0, fileSize: nil)
        summary.interruptions = [Interruption(inputID: "side", reason: .failed("Could not read from resource."), from: .seconds(2), to: .milliseconds(4500)),
                                 Interruption(inputID: "mic", reason: .silent(.seconds(2)), from: .seconds(8))]
        XCTAssertTrue(summary.description.contains("  side was away from 00:02.0 to 00:04.5: Could not read from resource."), summary.description)
        XCTAssertTrue(summary.description.contains("  mic was away from 00:08.0 to the end: no data for 2.0 s"), summary.description)
    }
}
