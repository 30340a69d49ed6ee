import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam record` as a user runs it, checked with ffprobe and ffmpeg.
final class RecordCommandTests: XCTestCase {
    func testDemoRecordingHasTheDescribedTracksDurationAndPicture() throws {
        let folder = try Paths.scratch("demo")
        let file = "\(folder)/out.mkv"
        let result = try Command.run([Paths.pipcam, "record", file, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--duration", "5"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.output.contains("front:") && result.output.contains("dropped"), "summary: \(result.output)")

        let probe = try MediaProbe(path: file)
        let video = try XCTUnwrap(probe.videoStreams.first)
        XCTAssertEqual(video.codecName, "h264")
        XCTAssertEqual(video.width, 1280)
        XCTAssertEqual(video.height, 720)
        XCTAssertEqual(video.frameRate, "30/1")
        XCTAssertEqual(probe.audioStreams.map(\.codecName), ["opus", "opus", "opus"], "mix, then each microphone")
        XCTAssertEqual(probe.audioStreams.map(\.channels), [2, 1, 1])
        let duration = try XCTUnwrap(probe.duration)
        XCTAssertEqual(duration, 5, accuracy: 1.0 / 30 + 0.001, "5 s ± one frame")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 150, accuracy: 1, "5 s at 30 fps, ± one frame")
        XCTAssertEqual(Self.pictures(in: result.output), try MediaProbe.videoFrameCount(path: file), "the summary counts the file's frames: \(result.output)")

        // The inset (bottom-right, 30 % of the width, 3 % margin) shows the second camera's blue;
        // the same area at the top-left shows the first camera's bars.
        let frame = try DecodedFrame(path: file, at: 2.5, width: 1280, height: 720)
        XCTAssertGreaterThan(frame.fraction(x: 870, y: 500, width: 360, height: 170, where: TestColors.isInsetBlue), 0.8)
        XCTAssertLessThan(frame.fraction(x: 0, y: 100, width: 384, height: 216, where: TestColors.isInsetBlue), 0.05)

        // Each microphone's track carries its own tone; the mix carries both.
        XCTAssertEqual(try ToneProbe.frequency(path: file, stream: 1), 440, accuracy: 15)
        XCTAssertEqual(try ToneProbe.frequency(path: file, stream: 2), 880, accuracy: 15)
    }

    /// A label is drawn as written: markup's characters and a broken tag neither vanish with a Pango
    /// warning every frame nor abort on a critical (the tests run with fatal criticals).
    func testALabelWithMarkupCharactersIsPlainText() throws {
        let folder = try Paths.scratch("label")
        let description = "\(folder)/labels.yaml"
        try """
        cameras:
          - name: qa
            synthetic: smpte
            label: "Q&A <session"
          - name: side
            synthetic: ball
            label: "<b>bold</b> & 'quoted'"
        """.write(toFile: description, atomically: true, encoding: .utf8)
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", description, "--duration", "1"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertFalse(result.error.contains("Pango"), result.error)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/out.mkv"), "")
    }

    func testInterruptFinalizesTheFile() throws {
        let folder = try Paths.scratch("interrupt")
        let file = "\(folder)/out.mkv"
        let recording = try Command.start([Paths.pipcam, "record", file, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml"])
        // The scenario is "Ctrl-C after about three seconds": wait for the file, then let three seconds pass.
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: file) && Date() < deadline { usleep(50_000) }
        Thread.sleep(forTimeInterval: 3)
        recording.signal(SIGINT)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.output.contains("recorded"), result.output)

        let duration = try XCTUnwrap(try MediaProbe(path: file).duration, "a finalized file has a duration")
        XCTAssertEqual(duration, 3, accuracy: 0.6)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        XCTAssertEqual(Self.pictures(in: result.output), try MediaProbe.videoFrameCount(path: file), "the summary counts the file's frames: \(result.output)")
    }

    /// Whoever presses Ctrl-C twice does not wait for the queues to drain: pipcam stops at once, and the
    /// file is ended all the same, with what reached it.
    func testASecondInterruptStopsAtOnceWithTheFileEnded() throws {
        let folder = try Paths.scratch("interrupt-twice")
        let file = "\(folder)/out.mkv"
        let recording = try Command.start([Paths.pipcam, "record", file, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml"])
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: file) && Date() < deadline { usleep(50_000) }
        Thread.sleep(forTimeInterval: 2)
        let stopped = Date()
        // Back to back, as two signals the system cannot merge into one: the demo's queues drain in
        // milliseconds, which a second press would miss.
        recording.signal(SIGTERM)
        recording.signal(SIGINT)
        let result = recording.wait()
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 5, "stopped at once")
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.error.contains("stopping at once"), result.error)
        XCTAssertGreaterThan(try XCTUnwrap(try MediaProbe(path: file).duration, "the file is ended: it states its duration"), 1)
        XCTAssertEqual(try MediaProbe.remuxWarnings(path: file), "")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    /// The summary's "picture: N frames in the file".
    private static func pictures(in summary: String) -> Int? {
        summary.split(separator: "\n").first { $0.contains("picture:") }.flatMap { line in
            line.split(separator: " ").firstIndex(of: "picture:").flatMap { Int(line.split(separator: " ")[$0 + 1]) }
        }
    }

    func testExistingFileIsKeptWithoutForce() throws {
        let folder = try Paths.scratch("overwrite")
        let file = "\(folder)/taken.mkv"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: file))
        let result = try Command.run([Paths.pipcam, "record", file, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--duration", "1"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("--force"), result.error)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "precious")

        let forced = try Command.run([Paths.pipcam, "record", file, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--duration", "1", "--force"])
        XCTAssertEqual(forced.status, 0, forced.error)
        XCTAssertEqual(try MediaProbe(path: file).videoStreams.count, 1)
    }

    func testWithoutTwoCamerasTheErrorListsWhatWasFoundAndPointsToTheDemo() throws {
        let folder = try Paths.scratch("nocam")
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--duration", "1"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("found no camera") || result.error.contains("found only"), result.error)
        XCTAssertTrue(result.error.contains("pipelines/demo.yaml"), result.error)
        XCTAssertEqual(result.error.split(separator: "\n").count, 1, "one line: \(result.error)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out.mkv"))
    }

    func testBadArgumentsAreOneLineErrors() throws {
        let folder = try Paths.scratch("args")
        let demo = "\(Paths.repository)/pipelines/demo.yaml"
        for (arguments, expected) in [
            (["record", "\(folder)/out.mkv", "--pipeline", demo, "--duration", "-3"], "--duration is 0.1…86400.0 seconds, not -3.0"),
            // Shorter than a picture, it once stalled the start for 16 s.
            (["record", "\(folder)/out.mkv", "--pipeline", demo, "--duration", "0.01"], "--duration is 0.1…86400.0 seconds, not 0.01"),
            (["stream", "hls:\(folder)", "--pipeline", demo, "--duration", "0"], "--duration is 0.1…86400.0 seconds, not 0.0"),
            (["record", "\(folder)/missing/out.mkv", "--pipeline", demo], "the folder \(folder)/missing does not exist"),
            (["record", "\(folder)/out.mp4", "--pipeline", demo], "needs a .mkv extension"),
            (["record", "\(folder)/out.mkv", "--pipeline", "\(folder)/nothing.yaml"], "the description does not exist"),
            // A path with an escape sequence is shown, not run by the terminal.
            (["record", "\(folder)/out\u{1B}[31m.mp4", "--pipeline", demo], "out\\x1B[31m.mp4 needs a .mkv extension"),
        ] {
            let result = try Command.run([Paths.pipcam] + arguments)
            XCTAssertNotEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.error.contains(expected), "expected \(expected)\ngot \(result.error)")
            XCTAssertFalse(result.error.contains("\u{1B}"), result.error)
            XCTAssertFalse(result.error.contains("Fatal error"), result.error)
        }
    }
}
