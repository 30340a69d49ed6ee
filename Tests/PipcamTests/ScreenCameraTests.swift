import Foundation
import PipcamTestSupport
import XCTest

/// A screen as a camera, on a virtual X server: what is drawn on the screen is what is recorded, as the
/// main picture, as the inset, and cut to a region.
final class ScreenCameraTests: XCTestCase {
    private static func isRed(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 200 && p.g < 60 && p.b < 60 }

    /// Records 2 s of the screen and a synthetic camera at 640x360; the screen shows a red window over
    /// its left half (no window manager: a window opens at the top-left corner at its picture's size).
    private func record(screen: String, layout: String) throws -> DecodedFrame {
        let display = try VirtualDisplay(width: 640, height: 360)
        let window = try Command.start(["gst-launch-1.0", "-q", "videotestsrc", "pattern=red", "!", "video/x-raw,width=320,height=360", "!", "ximagesink"],
                                       environment: ["DISPLAY": display.name])
        defer { window.signal(SIGTERM); _ = window.wait() }
        try display.waitForScreen("the red window") { $0.fraction(x: 20, y: 20, width: 280, height: 320, where: Self.isRed) > 0.95 }

        let folder = try Paths.scratch("screen")
        let description = """
            preset: low
            cameras:
              - name: screen
            \(screen)
              - name: face
                synthetic: ball
            layout:
            \(layout)
            """
        try description.write(toFile: "\(folder)/screen.yaml", atomically: true, encoding: .utf8)
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/screen.mkv", "--pipeline", "\(folder)/screen.yaml", "--duration", "2"],
                                     environment: ["DISPLAY": display.name])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/screen.mkv"), "")
        return try DecodedFrame(path: "\(folder)/screen.mkv", at: 1.5, width: 640, height: 360)
    }

    func testTheScreenIsTheMainPicture() throws {
        let frame = try record(screen: "    screen: default\n    pointer: false", layout: "  main: screen")
        XCTAssertGreaterThan(frame.fraction(x: 20, y: 20, width: 280, height: 180, where: Self.isRed), 0.95, "the window's half of the screen")
        XCTAssertLessThan(frame.fraction(x: 340, y: 20, width: 240, height: 180, where: Self.isRed), 0.02, "the empty half")
    }

    func testTheScreenIsTheInset() throws {
        let frame = try record(screen: "    screen: default", layout: "  main: face")
        // The inset is 192x108 at (430, 234): the screen's left half red, its right half not.
        XCTAssertGreaterThan(frame.fraction(x: 436, y: 240, width: 84, height: 96, where: Self.isRed), 0.9, "the window in the inset")
        XCTAssertLessThan(frame.fraction(x: 532, y: 240, width: 84, height: 96, where: Self.isRed), 0.02, "the empty half of the inset")
        XCTAssertLessThan(frame.fraction(x: 20, y: 20, width: 380, height: 180, where: Self.isRed), 0.02, "the face is full frame")
    }

    func testARegionOfTheScreenFillsThePicture() throws {
        let frame = try record(screen: "    screen: default\n    region: {x: 0, y: 90, width: 320, height: 180}", layout: "  main: screen")
        XCTAssertGreaterThan(frame.fraction(x: 10, y: 10, width: 620, height: 200, where: Self.isRed), 0.95, "only the red window was captured")
    }
}
