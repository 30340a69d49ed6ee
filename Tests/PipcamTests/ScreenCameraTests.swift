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

    /// On a Wayland desktop `screen: default` is the screen the desktop's portal shares (here sway's,
    /// through xdg-desktop-portal and PipeWire, set to share its one screen without asking): what the
    /// screen shows is recorded as it changes, and the desktop's token for the share is kept for next time.
    func testOnWaylandTheScreenIsSharedThroughTheDesktopsPortal() throws {
        let folder = try Paths.scratch("screen-portal")
        let description = """
            preset: low
            cameras:
              - name: screen
                screen: default
              - name: face
                synthetic: ball
            layout:
              main: screen
            """
        try description.write(toFile: "\(folder)/screen.yaml", atomically: true, encoding: .utf8)
        let file = "\(folder)/screen.mkv"
        // The screen is red when the recording starts and is painted blue a second after it does.
        let script = [
            "\(Paths.pipcam) record \(file) --pipeline \(folder)/screen.yaml --duration 6 > \(folder)/summary.txt 2> \(folder)/log.txt & pid=$!",
            "n=0; until grep -q '^recording' \(folder)/log.txt; do n=$((n+1)); [ $n -le 300 ] || break; sleep 0.1; done",
            "sleep 1",
            "swaymsg -q output HEADLESS-1 background '#0000ff' solid_color",
            "status=0; wait $pid || status=$?",
            "exit $status",
        ].joined(separator: "\n")
        let result = try Command.run(["\(Paths.repository)/scripts/with-wayland-desktop", "--", "sh", "-c", script],
                                     environment: ["XDG_STATE_HOME": "\(folder)/state"])
        if result.status == 77 {
            print("!!!!! PORTAL TEST SKIPPED: \(result.error.split(separator: "\n").first ?? "")")
            throw XCTSkip("the Wayland desktop could not run: \(result.error)")
        }
        let log = (try? String(contentsOfFile: "\(folder)/log.txt", encoding: .utf8)) ?? ""
        XCTAssertEqual(result.status, 0, "pipcam said: \(log)\n\(result.error)")
        XCTAssertTrue(log.contains("shared through the desktop's portal"), log)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")

        let isBlue = { (p: (r: Int, g: Int, b: Int)) in p.b > 200 && p.r < 60 && p.g < 60 }
        let first = try DecodedFrame(path: file, at: 0.2, width: 640, height: 360)
        XCTAssertGreaterThan(first.fraction(x: 20, y: 20, width: 380, height: 180, where: Self.isRed), 0.98, "the red screen, full frame")
        let last = try DecodedFrame(path: file, at: 5.5, width: 640, height: 360)
        XCTAssertGreaterThan(last.fraction(x: 20, y: 20, width: 380, height: 180, where: isBlue), 0.98, "the screen as it changed")
        XCTAssertFalse(last.fraction(x: 436, y: 240, width: 180, height: 96, where: isBlue) > 0.9, "the face is the inset")
        let token = try String(contentsOfFile: "\(folder)/state/pipcam/screen-share-token", encoding: .utf8)
        let permissions = try FileManager.default.attributesOfItem(atPath: "\(folder)/state/pipcam/screen-share-token")[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600, "only its owner may read the token")
        XCTAssertFalse(token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "the desktop's token for sharing again without asking")
    }

    /// The desktop asks which screen to share and nobody answers: Ctrl-C ends pipcam at once, with one
    /// line saying why, and no file is left behind (nothing was recorded).
    func testCtrlCWhileTheDesktopAsksWhichScreenEndsAtOnce() throws {
        let folder = try Paths.scratch("screen-portal-ask")
        try "cameras:\n  - name: screen\n    screen: portal\n  - name: face\n    synthetic: ball\n"
            .write(toFile: "\(folder)/screen.yaml", atomically: true, encoding: .utf8)
        let file = "\(folder)/screen.mkv"
        // The chooser leaves a mark when the desktop starts asking, then waits for a user who never comes.
        let script = [
            "\(Paths.pipcam) record \(file) --pipeline \(folder)/screen.yaml > \(folder)/summary.txt 2> \(folder)/log.txt & pid=$!",
            "n=0; until [ -e \(folder)/asked ]; do n=$((n+1)); [ $n -le 300 ] || break; sleep 0.1; done",
            "start=$(date +%s%N); kill -INT $pid",
            "status=0; wait $pid || status=$?",
            "echo $status $(( ($(date +%s%N) - start) / 1000000 )) > \(folder)/result.txt",
        ].joined(separator: "\n")
        let result = try Command.run(["\(Paths.repository)/scripts/with-wayland-desktop", "--ask", "touch \(folder)/asked; sleep 600", "--", "sh", "-c", script],
                                     environment: ["XDG_STATE_HOME": "\(folder)/state"])
        if result.status == 77 { throw XCTSkip("the Wayland desktop could not run: \(result.error)") }
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/asked"), "the desktop asked which screen")
        let parts = try String(contentsOfFile: "\(folder)/result.txt", encoding: .utf8).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let log = (try? String(contentsOfFile: "\(folder)/log.txt", encoding: .utf8)) ?? ""
        XCTAssertEqual(parts.count, 2)
        XCTAssertNotEqual(parts.first, 0, "not a recording: \(log)")
        XCTAssertLessThan(parts.last ?? .max, 5000, "milliseconds from Ctrl-C to exit")
        XCTAssertTrue(log.contains("Error: screen: screen sharing was cancelled"), log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing was recorded, so no file")
    }
}
