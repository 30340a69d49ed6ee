@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// What `check` suggests and `over-budget: adjust` applies, on configurations of webcams with known modes.
final class CostAdvisorTests: XCTestCase {
    let roomy = PixelBudget(generate: 1e12, decode: 1e12, composite: 1e12, encode: 1e12, cores: 2)

    /// A webcam offering YUYV and MJPEG at 1280x720 and 640x480.
    func webcam(_ id: String, node: String) -> CaptureDevice {
        CaptureDevice(id: id, name: id, mediaType: .video, source: .v4l2(path: node), formats: [
            VideoFormat(pixelFormat: "YUY2", width: 1280, height: 720, frameRates: [30, 10]),
            VideoFormat(pixelFormat: "YUY2", width: 640, height: 480, frameRates: [30, 15]),
            VideoFormat(pixelFormat: "MJPG", width: 1280, height: 720, frameRates: [30, 15]),
            VideoFormat(pixelFormat: "MJPG", width: 640, height: 480, frameRates: [30, 15]),
        ])
    }

    /// Two webcams asked for raw 1280x720 at 30 fps.
    func twoRawWebcams() -> SessionConfiguration {
        var configuration = SessionConfiguration(recording: [webcam("left", node: "/dev/video0"), webcam("right", node: "/dev/video2")],
                                                 to: MovieFileOutput(path: "/tmp/x.mkv"), preset: .hd720)
        for index in configuration.inputs.indices {
            configuration.inputs[index].activeFormat = VideoFormat(pixelFormat: "YUY2", width: 1280, height: 720, frameRates: [30])
            configuration.inputs[index].activeFrameRate = 30
        }
        return configuration
    }

    let oneBus: [String: UsbBus] = ["left": .usb2("usb1"), "right": .usb2("usb1")]

    func testTwoRawWebcamsOnOneUSB2ControllerAreAdvisedMJPEG() throws {
        let configuration = twoRawWebcams()
        let cost = try configuration.hardwareCost(buses: oneBus, budget: roomy)
        XCTAssertEqual(cost.total, 884.736 / 288, accuracy: 0.001)
        let remedies = try CostAdvisor.remedies(for: configuration, buses: oneBus, budget: roomy)
        XCTAssertEqual(remedies.first?.text, "left: use MJPEG, format: {width: 1280, height: 720, frame-rate: 30, pixel-format: MJPG}")
        XCTAssertEqual(remedies.first?.cost ?? 0, (442.368 + 55.296) / 288, accuracy: 0.001, "one camera in MJPEG is not enough")
        let both = try XCTUnwrap(remedies.first { $0.text.hasPrefix("left, right: use MJPEG") })
        XCTAssertEqual(both.cost, 110.592 / 288, accuracy: 0.001)
        let separate = try XCTUnwrap(remedies.first { !$0.isAutomatic })
        XCTAssertEqual(separate.cost, 442.368 / 288, accuracy: 0.001, "alone, raw 720p30 still exceeds a USB 2.0 bus")
        XCTAssertTrue(remedies.allSatisfy { $0.cost < cost.total })
    }

    func testAdjustingPicksTheFirstChangeThatFits() throws {
        let (fitted, applied) = try CostAdvisor.fitted(twoRawWebcams(), buses: oneBus, budget: roomy)
        XCTAssertEqual(applied.count, 1)
        XCTAssertEqual(fitted.inputs.map { $0.activeFormat?.pixelFormat }, ["MJPG", "MJPG"])
        XCTAssertEqual(try fitted.graphPlan().cameraModes["left"], CaptureMode(pixelFormat: "MJPG", width: 1280, height: 720, frameRate: 30))
        XCTAssertLessThanOrEqual(try fitted.hardwareCost(buses: oneBus, budget: roomy).total, 1)
    }

    func testAConfigurationThatFitsNeedsNoRemedy() throws {
        let buses: [String: UsbBus] = ["left": .usb3("usb2"), "right": .usb3("usb2")]
        XCTAssertTrue(try CostAdvisor.remedies(for: twoRawWebcams(), buses: buses, budget: roomy).isEmpty)
        XCTAssertEqual(try CostAdvisor.fitted(twoRawWebcams(), buses: buses, budget: roomy).applied.count, 0)
    }

    func testShortOfCPUTheFrameRateComesDownAsLittleAsNeeded() throws {
        // Drawing costs nothing; encoding the 1280x720 picture at 30 fps takes 1.1 core of the 0.8 usable.
        let budget = PixelBudget(generate: 1e12, decode: 1e12, composite: 1e12, encode: 27.648e6 / 1.1, cores: 1)
        let configuration = SessionConfiguration(recording: [.testPatternCamera(id: "a"), .testPatternCamera(id: "b")],
                                                 to: MovieFileOutput(path: "/tmp/x.mkv"), preset: .hd720)
        XCTAssertEqual(try configuration.hardwareCost(buses: [:], budget: budget).total, 1.375, accuracy: 0.001)
        let remedies = try CostAdvisor.remedies(for: configuration, buses: [:], budget: budget)
        XCTAssertEqual(remedies.map(\.text), ["lower the frame rate: frame-rate: 20", "a smaller picture: preset: medium"])
        XCTAssertEqual(remedies[0].cost, 1.375 * 20 / 30, accuracy: 0.001)
        let (fitted, _) = try CostAdvisor.fitted(configuration, buses: [:], budget: budget)
        XCTAssertEqual(fitted.frameRate, 20)
    }

    func testNothingAutomaticFitsWhenOnlyMovingACameraWould() throws {
        // Raw-only webcams at their only mode: pipcam cannot make them fit one USB 2.0 bus.
        let rawOnly = CaptureDevice(id: "x", name: "x", mediaType: .video, source: .v4l2(path: "/dev/video0"),
                                    formats: [VideoFormat(pixelFormat: "YUY2", width: 640, height: 480, frameRates: [30])])
        let other = CaptureDevice(id: "y", name: "y", mediaType: .video, source: .v4l2(path: "/dev/video2"), formats: rawOnly.formats)
        var configuration = SessionConfiguration(recording: [rawOnly, other], to: MovieFileOutput(path: "/tmp/x.mkv"), preset: .hd720)
        configuration.layout.kind = .sideBySide
        let buses: [String: UsbBus] = ["x": .usb2("usb1"), "y": .usb2("usb1")]
        let remedies = try CostAdvisor.remedies(for: configuration, buses: buses, budget: roomy)
        XCTAssertEqual(remedies.map(\.isAutomatic), [false])
        XCTAssertThrowsError(try CostAdvisor.fitted(configuration, buses: buses, budget: roomy))
    }

    func testTheReportNamesEachPartWhatTakesItAndTheFix() throws {
        let configuration = twoRawWebcams()
        let budget = PixelBudget(generate: 1e12, decode: 500e6, composite: 2e9, encode: 100e6, cores: 2)
        let buses: [String: UsbBus] = ["left": .usb2("usb1", controller: "0000:00:14.0"), "right": .usb2("usb1", controller: "0000:00:14.0")]
        let cost = try configuration.hardwareCost(buses: buses, budget: budget)
        XCTAssertEqual(cost.report(title: "webcams.yaml"), """
            webcams.yaml: hardware cost 3.07, over budget: this machine cannot run the session as configured
              usb1, USB 2.0 on 0000:00:14.0: 3.07 (885 of the 288 Mbit/s cameras can use of 480)
                left   YUY2 1280x720 @ 30  442 Mbit/s
                right  YUY2 1280x720 @ 30  442 Mbit/s
              cpu: 0.20 (of 80 % of 2 cores)
                composite           0.03  left YUY2 1280x720 @ 30, right YUY2 1280x720 @ 30, picture 1280x720 @ 30
                encode              0.17  picture 1280x720 @ 30
            """)
        XCTAssertEqual(cost.limit, "usb1 carries 885 of the 288 Mbit/s cameras can use (left, right)")
        let remedies = try CostAdvisor.remedies(for: configuration, buses: buses, budget: budget)
        XCTAssertEqual(HardwareCost.remedyList(remedies).split(separator: "\n").prefix(4).joined(separator: "\n"), """
            to fit, one of:
              left: use MJPEG, format: {width: 1280, height: 720, frame-rate: 30, pixel-format: MJPG}  → cost 1.73 (not enough alone)
              right: use MJPEG, format: {width: 1280, height: 720, frame-rate: 30, pixel-format: MJPG}  → cost 1.73 (not enough alone)
              left, right: use MJPEG on both  → cost 0.38
            """)
        XCTAssertTrue(HardwareCost.remedyList(remedies).contains("lower the frame rate: frame-rate: 15; in the cameras' formats: left 10, right 10  → cost 1.02"),
                      "the rate their mode offers below 15")
    }
}
