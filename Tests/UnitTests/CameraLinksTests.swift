@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
@testable import LinuxIO
import XCTest

/// Which udev name becomes a camera's id; the names come from udev's database on real machines (see
/// `DeviceTests` on vivid, whose two cameras claim one by-path name).
final class CameraLinksTests: XCTestCase {
    func testACameraWithAByIDNameOfItsOwnIsNamedByIt() {
        let links = CameraLinks(claims: ["/dev/video0": ["v4l/by-id/usb-Acme_Cam_123-video-index0", "v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"]])
        XCTAssertEqual(links.id(node: "/dev/video0", busInfo: "usb-0000:00:14.0-1"), "/dev/v4l/by-id/usb-Acme_Cam_123-video-index0")
    }

    func testTwoIdenticalCamerasWithoutSerialsAreNamedByTheirPorts() {
        let shared = "v4l/by-id/usb-Acme_Cam-video-index0"
        let links = CameraLinks(claims: [
            "/dev/video0": [shared, "v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"],
            "/dev/video2": [shared, "v4l/by-path/pci-0000:00:14.0-usb-0:2:1.0-video-index0"],
        ])
        XCTAssertEqual(links.id(node: "/dev/video0", busInfo: nil), "/dev/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0")
        XCTAssertEqual(links.id(node: "/dev/video2", busInfo: nil), "/dev/v4l/by-path/pci-0000:00:14.0-usb-0:2:1.0-video-index0")
    }

    func testCamerasThatShareEveryNameAreToldApartByBusInfo() {
        let shared = "v4l/by-path/platform-vivid.0-video-index0"
        let links = CameraLinks(claims: ["/dev/video0": [shared], "/dev/video1": [shared]])
        XCTAssertEqual(links.id(node: "/dev/video0", busInfo: "platform:vivid-000"), "/dev/\(shared)@platform:vivid-000")
        XCTAssertEqual(links.id(node: "/dev/video1", busInfo: "platform:vivid-001"), "/dev/\(shared)@platform:vivid-001")
    }

    func testANodeUdevNamedNothingIsItsOwnID() {
        XCTAssertEqual(CameraLinks(claims: [:]).id(node: "/dev/video4", busInfo: "x"), "/dev/video4")
    }
}
