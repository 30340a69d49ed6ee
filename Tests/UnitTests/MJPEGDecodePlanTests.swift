@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// Webcams that send MJPEG, in a 720p picture-in-picture: each decoded whole by pipcam's decoder, and a
/// camera shown small asked for a smaller MJPEG mode when it has one.
final class MJPEGDecodePlanTests: XCTestCase {
    private func webcam(_ id: String, node: String, small: Bool) -> CaptureDevice {
        CaptureDevice(id: id, name: id, mediaType: .video, source: .v4l2(path: node), formats: [
            VideoFormat(pixelFormat: "MJPG", width: 1920, height: 1080, frameRates: [30]),
        ] + (small ? [VideoFormat(pixelFormat: "MJPG", width: 640, height: 360, frameRates: [30])] : []))
    }

    private func configuration(small: Bool) -> SessionConfiguration {
        SessionConfiguration(recording: [webcam("front", node: "/dev/video0", small: small), webcam("side", node: "/dev/video2", small: small)],
                             to: MovieFileOutput(path: "/tmp/x.mkv"), preset: .hd720)
    }

    func testEachCameraIsDecodedWholeByPipcamsDecoder() throws {
        let plan = try configuration(small: false).graphPlan()
        let decoders = plan.nodes.filter { $0.factory == .jpegDecoder }
        XCTAssertEqual(decoders.count, 2, "both cameras through pipcam's decoder")
        XCTAssertTrue(decoders.allSatisfy { $0.properties.isEmpty }, "whole: no scale")
        XCTAssertFalse(plan.nodes.contains { $0.factory == .jpegdec })
        XCTAssertTrue(plan.launchLine.contains("jpegdec name=front-decode") || plan.launchLine.contains("jpegdec name="), "gst-launch decodes with jpegdec")
        XCTAssertFalse(plan.launchLine.contains(ElementFactory.jpegDecoder.rawValue), "gst-launch does not know pipcam's element")
    }

    func testACameraShownSmallIsAskedForItsSmallerMJPEGMode() throws {
        let plan = try configuration(small: true).graphPlan()
        XCTAssertEqual(plan.cameraModes["front"], CaptureMode(pixelFormat: "MJPG", width: 1920, height: 1080, frameRate: 30))
        XCTAssertEqual(plan.cameraModes["side"], CaptureMode(pixelFormat: "MJPG", width: 640, height: 360, frameRate: 30), "shown at 384x216")
    }
}
