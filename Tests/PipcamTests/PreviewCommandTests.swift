import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam preview` and `record --preview` on a virtual X server, checked on screenshots, and live
/// control over the `--control` socket, checked on screenshots and on the recorded frames.
final class PreviewCommandTests: XCTestCase {
    private let demo = "\(Paths.repository)/pipelines/demo.yaml"

    // The demo's 1280x720 picture is previewed at 640x360: the inset is 192x108 at (430, 234).
    private let inset = (x: 440, y: 244, width: 172, height: 88)
    private let main = (x: 20, y: 60, width: 380, height: 150)

    private func insetIsBall(_ shot: DecodedFrame) -> Bool {
        shot.fraction(x: inset.x, y: inset.y, width: inset.width, height: inset.height, where: TestColors.isInsetBlue) > 0.6
    }

    private func mainIsBall(_ shot: DecodedFrame) -> Bool {
        shot.fraction(x: main.x, y: main.y, width: main.width, height: main.height, where: TestColors.isInsetBlue) > 0.8
    }

    /// The bars fill the main region: most of it is one of their colours, none of it the ball's blue.
    private func mainIsBars(_ shot: DecodedFrame) -> Bool {
        shot.fraction(x: main.x, y: main.y, width: main.width, height: main.height) { TestColors.bar($0) != nil } > 0.8
            && shot.fraction(x: main.x, y: main.y, width: main.width, height: main.height, where: TestColors.isInsetBlue) < 0.05
    }

    func testPreviewShowsEachCameraWhereTheLayoutPutsItAndSwapsOnCommand() throws {
        let display = try VirtualDisplay()
        let socket = try Paths.scratch("preview") + "/control"
        let preview = try Command.start([Paths.pipcam, "preview", "--pipeline", demo, "--control", socket], environment: ["DISPLAY": display.name])
        defer { preview.signal(SIGTERM) }
        let control = try ControlClient(path: socket)

        let before = try display.waitForScreen("the bars full frame and the ball in the inset") { mainIsBars($0) && insetIsBall($0) }
        // The front camera is mirrored on screen, as people expect to see themselves.
        XCTAssertEqual(TestColors.barsAreMirrored(TestColors.bars(in: before, row: 150, x: 0, width: 640)), true)

        let answer = try control.send(#"{"command":"swap"}"#)
        XCTAssertEqual(answer["ok"] as? Bool, true, "\(answer)")
        XCTAssertEqual(answer["main"] as? String, "side")
        let after = try display.waitForScreen("the ball full frame after the swap") { mainIsBall($0) }
        XCTAssertFalse(insetIsBall(after), "the bars are in the inset now")
        XCTAssertGreaterThan(after.fraction(x: inset.x, y: inset.y, width: inset.width, height: inset.height / 2) { TestColors.bar($0) != nil }, 0.6)

        XCTAssertEqual(try control.send(#"{"command":"stop"}"#)["ok"] as? Bool, true)
        let result = preview.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket is removed on exit")
    }

    func testLayoutCornerAndCameraCommandsChangeTheWindow() throws {
        let display = try VirtualDisplay()
        let socket = try Paths.scratch("controls") + "/control"
        let preview = try Command.start([Paths.pipcam, "preview", "--pipeline", demo, "--control", socket], environment: ["DISPLAY": display.name])
        defer { preview.signal(SIGTERM) }
        let control = try ControlClient(path: socket)
        try display.waitForScreen("the ball in the inset") { insetIsBall($0) }

        XCTAssertEqual(try control.send(#"{"command":"corner","corner":"top-left"}"#)["corner"] as? String, "top-left")
        try display.waitForScreen("the inset at the top left") { shot in
            !insetIsBall(shot) && shot.fraction(x: 28, y: 28, width: 172, height: 88, where: TestColors.isInsetBlue) > 0.6
        }
        XCTAssertEqual(try control.send(#"{"command":"layout","kind":"side-by-side"}"#)["layout"] as? String, "side-by-side")
        try display.waitForScreen("the ball in the right half") { shot in
            shot.fraction(x: 330, y: 100, width: 300, height: 160, where: TestColors.isInsetBlue) > 0.6
                && shot.fraction(x: 10, y: 100, width: 300, height: 160, where: TestColors.isInsetBlue) < 0.05
        }
        let off = try control.send(#"{"command":"camera","id":"side","enabled":false}"#)
        XCTAssertEqual((off["cameras"] as? [String: Bool])?["side"], false, "\(off)")
        try display.waitForScreen("no ball once its camera is off") { shot in
            shot.fraction(x: 330, y: 100, width: 300, height: 160, where: TestColors.isInsetBlue) < 0.05
        }
        XCTAssertEqual(try control.send(#"{"command":"camera","id":"side"}"#)["cameras"].flatMap { ($0 as? [String: Bool])?["side"] }, true, "toggled back on")
        try display.waitForScreen("the ball back in the right half") { shot in
            shot.fraction(x: 330, y: 100, width: 300, height: 160, where: TestColors.isInsetBlue) > 0.6
        }

        // Mistakes are answered, and the session goes on.
        for (line, expected) in [(#"{"command":"fly"}"#, "unknown command"), (#"{"command":"camera","id":"back"}"#, "no camera 'back'"),
                                 (#"{"command":"corner","corner":"middle"}"#, "top-left"), ("not json", "JSON"),
                                 (#"{"command":"photo"}"#, "--photos"), (#"{"command":"mute","id":"voice"}"#, "no microphone")] {
            let answer = try control.send(line)
            XCTAssertEqual(answer["ok"] as? Bool, false, line)
            XCTAssertTrue((answer["error"] as? String ?? "").contains(expected), "\(line): \(answer)")
        }
        XCTAssertEqual(try control.send(#"{"command":"stop"}"#)["ok"] as? Bool, true)
        let result = preview.wait()
        XCTAssertEqual(result.status, 0, result.error)
    }

    func testKeysInTheWindowSwapAndStop() throws {
        let display = try VirtualDisplay()
        let preview = try Command.start([Paths.pipcam, "preview", "--pipeline", demo], environment: ["DISPLAY": display.name])
        defer { preview.signal(SIGTERM) }
        try display.waitForScreen("the ball in the inset") { insetIsBall($0) }
        try display.press("s", inWindow: "pipcam")
        try display.waitForScreen("the ball full frame after s") { mainIsBall($0) }
        try display.press("q", inWindow: "pipcam")
        let result = preview.wait()
        XCTAssertEqual(result.status, 0, result.error)
    }

    func testMuteAndPhotoOverTheSocketWhileRecordingWithoutAWindow() throws {
        let folder = try Paths.scratch("mute-photo")
        let file = "\(folder)/out.mkv", socket = "\(folder)/control"
        let recording = try Command.start([Paths.pipcam, "record", file, "--pipeline", demo, "--duration", "3", "--photos", folder, "--control", socket])
        let control = try ControlClient(path: socket)
        try control.waitUntilElapsed(1.5)
        let muted = try control.send(#"{"command":"mute","id":"voice","muted":true}"#)
        XCTAssertEqual((muted["microphones"] as? [String: Bool])?["voice"], false, "\(muted)")
        let photo = try control.send(#"{"command":"photo"}"#)
        let sidecar = try XCTUnwrap(photo["photo"] as? String, "\(photo)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar))
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)

        // The voice's own track (the second audio track) sounds before the mute and is silent after it.
        func loudness(from seconds: Double) throws -> Double {
            let run = try Command.run(["ffmpeg", "-ss", "\(seconds)", "-t", "0.5", "-i", file, "-map", "0:a:1", "-af", "volumedetect", "-f", "null", "-"])
            let line = run.error.split(separator: "\n").first { $0.contains("max_volume:") } ?? ""
            return Double(line.split(separator: " ").dropLast().last ?? "") ?? 0
        }
        XCTAssertGreaterThan(try loudness(from: 0.8), -20)
        XCTAssertLessThan(try loudness(from: 2.3), -60)
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 90, accuracy: 1)
    }

    func testWithoutADisplayPreviewSaysSoInOneLine() throws {
        for environment in [["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY"], ["-u", "WAYLAND_DISPLAY", "DISPLAY=:97"]] {
            let result = try Command.run(environment + [Paths.pipcam, "preview", "--pipeline", demo])
            XCTAssertNotEqual(result.status, 0, environment.joined(separator: " "))
            XCTAssertTrue(result.error.contains("display"), result.error)
            XCTAssertEqual(result.error.split(separator: "\n").count, 1, "one line: \(result.error)")
        }
    }

    /// The acceptance scenario: record 4 s with the preview open, swap over the control socket at 2 s.
    func testRecordingWithPreviewSwapsAtTwoSecondsWithoutLosingAFrame() throws {
        let display = try VirtualDisplay()
        let folder = try Paths.scratch("record-swap")
        let file = "\(folder)/out.mkv", socket = "\(folder)/control"
        let recording = try Command.start([Paths.pipcam, "record", file, "--pipeline", demo, "--duration", "4", "--preview", "--control", socket],
                                          environment: ["DISPLAY": display.name])
        let control = try ControlClient(path: socket)
        try display.waitForScreen("the preview with the ball in the inset") { insetIsBall($0) }
        try control.waitUntilElapsed(2)
        let answer = try control.send(#"{"command":"swap"}"#)
        XCTAssertEqual(answer["ok"] as? Bool, true, "\(answer)")
        XCTAssertEqual(try XCTUnwrap(answer["elapsed"] as? Double), 2, accuracy: 0.5)
        try display.waitForScreen("the ball full frame in the preview too") { mainIsBall($0) }
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)

        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 120, accuracy: 1, "4 s at 30 fps, ± one frame")
        let times = try MediaProbe.videoFrameTimes(path: file)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertEqual(later - earlier, 1.0 / 30, accuracy: 0.002, "a frame is missing between \(earlier) s and \(later) s")
        }
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")

        // Recorded as the recording's connections say: bars full frame and not mirrored before, the ball after.
        let before = try DecodedFrame(path: file, at: 1.0, width: 1280, height: 720)
        let after = try DecodedFrame(path: file, at: 3.2, width: 1280, height: 720)
        XCTAssertGreaterThan(before.fraction(x: 870, y: 500, width: 360, height: 170, where: TestColors.isInsetBlue), 0.8, "ball in the inset before")
        XCTAssertEqual(TestColors.barsAreMirrored(TestColors.bars(in: before, row: 300, x: 0, width: 1280)), false, "the recording is not mirrored")
        XCTAssertGreaterThan(after.fraction(x: 40, y: 120, width: 760, height: 300, where: TestColors.isInsetBlue), 0.8, "ball full frame after")
        XCTAssertLessThan(after.fraction(x: 870, y: 500, width: 360, height: 170, where: TestColors.isInsetBlue), 0.05, "bars in the inset after")
    }

    /// Closing the preview window is how people end a preview: pipcam exits cleanly, with no error.
    func testClosingThePreviewWindowEndsThePreviewCleanly() throws {
        let display = try VirtualDisplay()
        let preview = try Command.start([Paths.pipcam, "preview", "--pipeline", demo], environment: ["DISPLAY": display.name])
        defer { preview.signal(SIGTERM) }
        try display.waitForScreen("the ball in the inset") { insetIsBall($0) }
        try display.close(window: "pipcam")
        let result = preview.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertFalse(result.error.contains("rror"), result.error)
    }
}
