import Foundation
import PipcamTestSupport
import XCTest

/// Two cameras that send MJPEG, replayed from clips of their JPEG pictures (as webcams send them: 4:2:2),
/// recorded picture-in-picture by pipcam's decoder: every picture in the file, and each camera where it belongs.
final class MJPEGCameraTests: XCTestCase {
    func testMJPEGClipsAreRecordedAsTheirCamerasWouldBe() throws {
        let folder = try Paths.scratch("mjpeg-cameras")
        for (name, pattern) in [("main", "pattern=smpte"), ("inset", "pattern=ball background-color=0xff202080 foreground-color=0xffffe000")] {
            let made = try Command.run(["gst-launch-1.0", "-q", "-e", "videotestsrc", "num-buffers=60"] + pattern.split(separator: " ").map(String.init)
                                       + ["!", "video/x-raw,format=Y42B,width=1280,height=720,framerate=30/1", "!", "jpegenc", "quality=85",
                                          "!", "matroskamux", "!", "filesink", "location=\(folder)/\(name).mkv"])
            XCTAssertEqual(made.status, 0, made.error)
        }
        let description = """
            preset: hd720
            replay: fast
            cameras:
              - {name: main, file: main.mkv}
              - {name: inset, file: inset.mkv}
            layout: {kind: picture-in-picture, main: main}
            output: {encoder: software}
            """
        try description.write(toFile: "\(folder)/mjpeg.yaml", atomically: true, encoding: .utf8)
        let file = "\(folder)/out.mkv"
        let result = try Command.run([Paths.pipcam, "record", file, "--pipeline", "\(folder)/mjpeg.yaml"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.output.contains("inset: 60 frames captured (384x216 @ 30 fps), 0 dropped"), result.output)
        XCTAssertTrue(result.output.contains("main: 60 frames captured (1280x720 @ 30 fps)"), result.output)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 60, accuracy: 1)
        let frame = try DecodedFrame(path: file, at: 1, width: 1280, height: 720)
        XCTAssertGreaterThan(frame.fraction(x: 870, y: 500, width: 360, height: 170, where: TestColors.isInsetBlue), 0.7, "the inset camera in the inset")
        XCTAssertTrue(TestColors.isWhiteBar(frame.pixel(60, 200)), "the main camera's bars: \(frame.pixel(60, 200))")
    }
}
