@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// The cost model with the bus layout and the machine's budget as plain inputs: known inputs, known outputs.
final class HardwareCostTests: XCTestCase {
    /// Fast enough that only buses matter.
    let roomy = PixelBudget(generate: 1e12, decode: 1e12, composite: 1e12, encode: 1e12, cores: 2)

    func raw(_ id: String, _ width: Int = 1280, _ height: Int = 720, rate: Double = 30, format: String = "YUY2") -> CameraLoad {
        CameraLoad(inputID: id, width: width, height: height, frameRate: rate, pixelFormat: format, origin: .device)
    }

    func testRawYUYV720p30IsAbout442MbitPerSecond() {
        XCTAssertEqual(raw("a").bandwidth, 442.368, accuracy: 0.001)
        XCTAssertEqual(raw("a", format: "NV12").bandwidth, 331.776, accuracy: 0.001)
        XCTAssertEqual(raw("a", format: "MJPG").bandwidth, 442.368 / 8, accuracy: 0.001)
        XCTAssertEqual(UsbBus.usb2("usb1").usable, 288)
    }

    func testTwoRawCamerasOnOneUSB2ControllerAreOverBudget() {
        let bus = UsbBus.usb2("usb1", controller: "0000:00:14.0")
        let cost = HardwareCost(cameras: [raw("left"), raw("right")], picture: nil, buses: ["left": bus, "right": bus], budget: roomy)
        XCTAssertEqual(cost.buses.count, 1)
        XCTAssertEqual(cost.buses[0].bandwidth, 884.736, accuracy: 0.001)
        XCTAssertEqual(cost.total, 884.736 / 288, accuracy: 0.001)
        XCTAssertTrue(cost.isOverBudget)
        XCTAssertEqual(cost.overBudgetBuses.map(\.bus.id), ["usb1"])
    }

    func testTheSameCamerasInMJPEGFit() {
        let bus = UsbBus.usb2("usb1")
        let cost = HardwareCost(cameras: [raw("left", format: "MJPG"), raw("right", format: "MJPG")], picture: nil,
                                buses: ["left": bus, "right": bus], budget: roomy)
        XCTAssertEqual(cost.total, 110.592 / 288, accuracy: 0.001)
        XCTAssertFalse(cost.isOverBudget)
    }

    func testTwoVGACamerasFailTogetherButFitOnControllersOfTheirOwn() {
        // The classic: two 640x480 YUYV webcams at 30 fps on one USB 2.0 controller.
        let cameras = [raw("left", 640, 480), raw("right", 640, 480)]
        let shared = HardwareCost(cameras: cameras, picture: nil, buses: ["left": .usb2("usb1"), "right": .usb2("usb1")], budget: roomy)
        XCTAssertEqual(shared.total, 294.912 / 288, accuracy: 0.001)
        XCTAssertTrue(shared.isOverBudget)
        let separate = HardwareCost(cameras: cameras, picture: nil, buses: ["left": .usb2("usb1"), "right": .usb2("usb3")], budget: roomy)
        XCTAssertEqual(separate.buses.count, 2)
        XCTAssertEqual(separate.total, 147.456 / 288, accuracy: 0.001)
        XCTAssertFalse(separate.isOverBudget)
    }

    func testAUSB3ControllerCarriesTwoRaw720pCameras() {
        let cost = HardwareCost(cameras: [raw("left"), raw("right")], picture: nil, buses: ["left": .usb3("usb2"), "right": .usb3("usb2")], budget: roomy)
        XCTAssertEqual(cost.total, 884.736 / 3000, accuracy: 0.001)
    }

    func testCamerasOffUSBAreListedAndNotCounted() {
        let cost = HardwareCost(cameras: [raw("csi"), CameraLoad(inputID: "pattern", width: 640, height: 360, frameRate: 30, origin: .synthetic)],
                                picture: nil, buses: [:], budget: roomy)
        XCTAssertTrue(cost.buses.isEmpty)
        XCTAssertEqual(cost.camerasOffBus, ["csi"], "a synthetic camera has no bus to be missing")
    }

    func testCPUStagesAddUpAgainstTheUsableShareOfTheCores() {
        let budget = PixelBudget(generate: 100e6, decode: 200e6, composite: 1e9, encode: 50e6, cores: 2)
        let cameras = [
            CameraLoad(inputID: "drawn", width: 1000, height: 1000, frameRate: 10, origin: .synthetic),    // 10 Mpx/s
            CameraLoad(inputID: "webcam", width: 1000, height: 1000, frameRate: 20, pixelFormat: "MJPG"),  // 20 Mpx/s
            CameraLoad(inputID: "rawcam", width: 1000, height: 1000, frameRate: 30, pixelFormat: "YUY2"),  // 30 Mpx/s
        ]
        let picture = PictureLoad(width: 1000, height: 1000, frameRate: 25)                               // 25 Mpx/s
        let cost = HardwareCost(cameras: cameras, picture: picture, buses: [:], budget: budget)
        let seconds = Dictionary(uniqueKeysWithValues: cost.stages.map { ($0.kind, $0.coreSeconds) })
        XCTAssertEqual(seconds[.generate]!, 0.1, accuracy: 1e-9)
        XCTAssertEqual(seconds[.decode]!, 0.1, accuracy: 1e-9)
        XCTAssertEqual(seconds[.composite]!, (20e6 + 30e6 + 25e6) / 1e9, accuracy: 1e-9, "drawn cameras are composed in their own stage")
        XCTAssertEqual(seconds[.encode]!, 0.5, accuracy: 1e-9)
        XCTAssertEqual(cost.cpuShare, (0.1 + 0.1 + 0.075 + 0.5) / 1.6, accuracy: 1e-9)
        XCTAssertEqual(cost.total, cost.cpuShare, "no bus: the CPU is the only part")

        var hardware = picture
        hardware.softwareEncoded = false
        XCTAssertEqual(HardwareCost(cameras: cameras, picture: hardware, buses: [:], budget: budget).stages.first { $0.kind == .encode }?.coreSeconds, 0)
        var isolated = cameras
        isolated[2].encodedAlone = true
        XCTAssertEqual(HardwareCost(cameras: isolated, picture: picture, buses: [:], budget: budget).stages.first { $0.kind == .encode }!.coreSeconds,
                       0.5 + 0.6, accuracy: 1e-9, "an isolated track is encoded too")
    }

    func testTheTotalIsTheFullestPartNotTheSum() {
        let budget = PixelBudget(generate: 1, decode: 1, composite: 1e12, encode: 27.648e6 / 0.72, cores: 1)  // encoding the picture: 0.72 core
        let bus = UsbBus.usb2("usb1")
        let cost = HardwareCost(cameras: [raw("a", 640, 480)], picture: PictureLoad(width: 1280, height: 720, frameRate: 30),
                                buses: ["a": bus], budget: budget)
        XCTAssertEqual(cost.cpuShare, 0.9, accuracy: 0.001)
        XCTAssertEqual(cost.buses[0].share, 147.456 / 288, accuracy: 0.001)
        XCTAssertEqual(cost.total, 0.9, accuracy: 0.001)
        XCTAssertFalse(cost.isOverBudget)
    }
}
