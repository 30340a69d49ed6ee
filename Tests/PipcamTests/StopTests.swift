import Foundation
import PipcamTestSupport
import XCTest

/// A stop always stops: `--duration` counts the session's time whatever the cameras do, and a first
/// SIGTERM ends the file within a second in every state a recording can be in: no camera yet, every
/// camera ended, a camera away.
final class StopTests: XCTestCase {
    /// Cameras that never show up: named by devices that are not there, and optional.
    private static let absentCameras = """
        cameras:
          - name: a
            device: /dev/video97
            optional: true
          - name: b
            device: /dev/video98
            optional: true
        """
    private static let microphone = """

        microphones:
          - name: voice
            synthetic: 440

        """

    /// Two clips that play out after 2 s while a microphone goes on: `--duration 3` still ends the
    /// recording, and the file, at 3 s.
    func testDurationEndsTheRecordingAfterEveryClipHasPlayedOut() throws {
        let folder = try Paths.scratch("stop-duration-clips")
        let description = try Self.clipsDescription(in: folder, frames: 60)
        let file = "\(folder)/out.mkv"
        let result = try Command.run(["timeout", "-k", "5", "30", Paths.pipcam, "record", file, "--pipeline", description, "--duration", "3"])
        XCTAssertEqual(result.status, 0, "ends by itself: \(result.error)")
        XCTAssertEqual(try XCTUnwrap(try MediaProbe(path: file).duration), 3, accuracy: 0.1, "the sound goes on to the limit")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    /// No camera gives a picture at all: the recording still ends at its duration.
    func testDurationEndsARecordingWhoseCamerasNeverCame() throws {
        let folder = try Paths.scratch("stop-duration-absent")
        let description = "\(folder)/absent.yaml"
        try (Self.absentCameras + Self.microphone).write(toFile: description, atomically: true, encoding: .utf8)
        let file = "\(folder)/out.mkv"
        let result = try Command.run(["timeout", "-k", "5", "30", Paths.pipcam, "record", file, "--pipeline", description, "--duration", "2"])
        XCTAssertEqual(result.status, 0, "ends by itself: \(result.error)")
        XCTAssertEqual(try XCTUnwrap(try MediaProbe(path: file).duration), 2, accuracy: 0.15)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    func testAStopEndsTheFileWithinASecondBeforeAnyCameraCame() throws {
        let folder = try Paths.scratch("stop-no-camera")
        let description = "\(folder)/absent.yaml"
        try (Self.absentCameras + Self.microphone).write(toFile: description, atomically: true, encoding: .utf8)
        try assertAStopEndsTheFileWithinASecond(description, after: 2, in: folder)
    }

    func testAStopEndsTheFileWithinASecondOnceEveryClipHasPlayedOut() throws {
        let folder = try Paths.scratch("stop-clips-ended")
        let description = try Self.clipsDescription(in: folder, frames: 15)
        try assertAStopEndsTheFileWithinASecond(description, after: 2, in: folder)
    }

    func testAStopEndsTheFileWithinASecondWhileACameraIsAway() throws {
        let folder = try Paths.scratch("stop-camera-away")
        let description = "\(folder)/one-away.yaml"
        let cameras = """
            cameras:
              - name: a
                synthetic: ball
              - name: b
                device: /dev/video98
                optional: true
            """
        try (cameras + Self.microphone).write(toFile: description, atomically: true, encoding: .utf8)
        try assertAStopEndsTheFileWithinASecond(description, after: 2, in: folder)
    }

    /// Records `description`, lets `seconds` pass once the file is there, sends one SIGTERM, and wants
    /// pipcam gone within a second with the file finished and read without an error.
    private func assertAStopEndsTheFileWithinASecond(_ description: String, after seconds: Double, in folder: String,
                                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let output = "\(folder)/out.mkv"
        let recording = try Command.start([Paths.pipcam, "record", output, "--pipeline", description])
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: output) && Date() < deadline { usleep(50_000) }
        // The scenario: the recording has gone on for a while in this state.
        Thread.sleep(forTimeInterval: seconds)
        let stopped = Date()
        recording.signal(SIGTERM)
        // One signal only: a second would stop at once whatever the first did. A stop that hangs is ended
        // by the test after 20 s.
        let watchdog = DispatchWorkItem { recording.signal(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        let result = recording.wait()
        watchdog.cancel()
        let took = Date().timeIntervalSince(stopped)
        XCTAssertEqual(result.status, 0, result.error, file: file, line: line)
        XCTAssertLessThan(took, 1, "the first stop ends the file within a second: \(result.error)", file: file, line: line)
        XCTAssertFalse(result.error.contains("stopping at once"), "one stop was enough", file: file, line: line)
        XCTAssertGreaterThan(try XCTUnwrap(try MediaProbe(path: output).duration, "finished: it states its duration", file: file, line: line),
                             seconds - 0.5, file: file, line: line)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: output), "", file: file, line: line)
    }

    /// Two raw clips of `frames` pictures (30 a second) as the cameras, and a tone as the microphone.
    private static func clipsDescription(in folder: String, frames: Int) throws -> String {
        try makeY4MClip(at: "\(folder)/a.y4m", frames: frames, width: 320, height: 240)
        try makeY4MClip(at: "\(folder)/b.y4m", frames: frames, width: 320, height: 240, pattern: ["pattern=ball"])
        let description = "\(folder)/clips.yaml"
        let cameras = """
            cameras:
              - name: a
                file: a.y4m
              - name: b
                file: b.y4m
            """
        try (cameras + microphone).write(toFile: description, atomically: true, encoding: .utf8)
        return description
    }
}
