@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// Reading which USB bus a camera is on, from a sysfs tree laid out as the kernel does.
final class UsbTopologyTests: XCTestCase {
    var sysfs = ""

    override func setUpWithError() throws {
        sysfs = NSTemporaryDirectory() + "pipcam-sysfs-\(UUID().uuidString.prefix(8))"
        let controller = "devices/pci0000:00/0000:00:14.0"
        // A USB 2.0 webcam (behind a hub) on usb1, and a USB 3 one on usb2: one xHCI controller, two buses.
        try make("\(controller)/usb1/speed", "480")
        try make("\(controller)/usb1/1-2/speed", "480")
        try make("\(controller)/usb1/1-2/1-2.1/speed", "480")
        try make("\(controller)/usb1/1-2/1-2.1/1-2.1:1.0/video4linux/video0/name", "Webcam C270")
        try make("\(controller)/usb2/speed", "5000")
        try make("\(controller)/usb2/2-1/speed", "5000")
        try make("\(controller)/usb2/2-1/2-1:1.0/video4linux/video2/name", "USB3 camera")
        try make("devices/platform/vivid.0/video4linux/video4/name", "vivid")
        try FileManager.default.createDirectory(atPath: "\(sysfs)/class/video4linux", withIntermediateDirectories: true)
        for (node, target) in [("video0", "\(controller)/usb1/1-2/1-2.1/1-2.1:1.0/video4linux/video0"),
                               ("video2", "\(controller)/usb2/2-1/2-1:1.0/video4linux/video2"),
                               ("video4", "devices/platform/vivid.0/video4linux/video4")] {
            try FileManager.default.createSymbolicLink(atPath: "\(sysfs)/class/video4linux/\(node)", withDestinationPath: "../../\(target)")
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: sysfs)
    }

    private func make(_ path: String, _ content: String) throws {
        let url = URL(fileURLWithPath: "\(sysfs)/\(path)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (content + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    func testACameraIsOnTheRootHubAboveIt() {
        XCTAssertEqual(UsbTopology.bus(ofNode: "/dev/video0", sysfs: sysfs), UsbBus(id: "usb1", controller: "0000:00:14.0", speed: 480))
        XCTAssertEqual(UsbTopology.bus(ofNode: "/dev/video2", sysfs: sysfs), UsbBus(id: "usb2", controller: "0000:00:14.0", speed: 5000))
        XCTAssertNil(UsbTopology.bus(ofNode: "/dev/video4", sysfs: sysfs), "a platform camera is on no USB bus")
        XCTAssertNil(UsbTopology.bus(ofNode: "/dev/video9", sysfs: sysfs), "no such node")
    }

    func testTheBusesOfASessionAreKeyedByInput() {
        let cameras = [("usb2cam", "/dev/video0"), ("usb3cam", "/dev/video2"), ("virtual", "/dev/video4")].map {
            CaptureDevice(id: $0.0, name: $0.0, mediaType: .video, source: .v4l2(path: $0.1))
        }
        let configuration = SessionConfiguration(recording: cameras + [.testPatternCamera(id: "drawn")], to: MovieFileOutput(path: "/tmp/x.mkv"))
        let buses = UsbTopology.buses(of: configuration, sysfs: sysfs)
        XCTAssertEqual(buses.mapValues(\.id), ["usb2cam": "usb1", "usb3cam": "usb2"])
        XCTAssertEqual(buses["usb2cam"]?.generation, "USB 2.0")
        XCTAssertEqual(buses["usb3cam"]?.generation, "USB 3.0")
    }
}
