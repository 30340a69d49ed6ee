import Foundation
import PipcamTestSupport
import XCTest

/// A recording killed at any moment (SIGKILL: no end-of-stream, no index, no duration) loses at most its
/// last two seconds, and `pipcam repair`, or the next `pipcam record` beside it, makes it playable and
/// seekable without a warning from ffmpeg or mkvmerge.
final class CrashSafetyTests: XCTestCase {
    /// One recording killed once it has run `after` seconds (as its events file says) plus a little.
    private struct Killed {
        let path: String
        /// Seconds recorded at least, when it was killed.
        let recorded: Double
    }

    private static func recordAndKill(_ path: String, after: Double, jitter: Double) throws -> Killed {
        let events = path + ".events.jsonl"
        let recording = try Command.start([Paths.pipcam, "record", path, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml",
                                           "--preset", "low", "--events", events])
        // The events file has a pressure sample about every second, timed on the recording's clock.
        var recorded = 0.0
        let deadline = Date().addingTimeInterval(after + 30)
        while recorded < after && Date() < deadline {
            let lines = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            recorded = lines.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["time"] as? Double
            }.max() ?? 0
            usleep(20_000)
        }
        Thread.sleep(forTimeInterval: jitter)
        recording.signal(SIGKILL)
        _ = recording.wait()
        return Killed(path: path, recorded: recorded)
    }

    func testRecordingsKilledAtRandomMomentsAreRepairedLosingAtMostTwoSeconds() throws {
        let trials = 20
        // A folder each: a recording repairs the unfinished ones it finds beside it.
        var generator = SystemRandomNumberGenerator()
        let moments = (0..<trials).map { 0.5 + 9.5 * Double($0) / Double(trials - 1) }
        let jitters = moments.map { _ in Double.random(in: 0..<0.5, using: &generator) }
        // Two at a time: the machine has two cores, and a low-preset recording needs a fraction of one.
        let lock = NSLock()
        nonisolated(unsafe) var results: [Int: Result<Killed, any Error>] = [:]
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for trial in stride(from: lane, to: trials, by: 2) {
                let outcome = Result { try Self.recordAndKill("\(try Paths.scratch("killed-\(trial)"))/killed.mkv", after: moments[trial], jitter: jitters[trial]) }
                lock.withLock { results[trial] = outcome }
            }
        }
        var lost: [Double] = []
        defer { print("killed recordings: at most \(String(format: "%.2f", lost.max() ?? 0)) s lost of \(lost.count) (mean \(String(format: "%.2f", lost.reduce(0, +) / Double(max(1, lost.count)))) s)") }
        for trial in 0..<trials {
            let killed = try XCTUnwrap(results[trial]).get()
            let label = "trial \(trial), killed after \(killed.recorded) s (+\(String(format: "%.2f", jitters[trial])) s)"
            let repair = try Command.run([Paths.pipcam, "repair", killed.path])
            XCTAssertEqual(repair.status, 0, "\(label): \(repair.error)")
            XCTAssertTrue(repair.output.hasPrefix("repaired \(killed.path)"), "\(label): \(repair.output)")
            let duration = try XCTUnwrap(try MediaProbe(path: killed.path).duration, "\(label): a repaired file has a duration")
            lost.append(killed.recorded + jitters[trial] - duration)
            XCTAssertGreaterThanOrEqual(duration, killed.recorded - 2, "\(label): at most the last 2 s are lost")
            XCTAssertLessThan(duration, killed.recorded + jitters[trial] + 2, "\(label): no more than was recorded")
            XCTAssertEqual(try MediaProbe.readerWarnings(path: killed.path), "", label)
            XCTAssertTrue(try Self.hasIndex(killed.path), "\(label): the file has an index to seek with")
            let again = try Command.run([Paths.pipcam, "repair", killed.path])
            XCTAssertEqual(again.output, "\(killed.path) is complete: nothing to repair\n", label)
        }
    }

    /// The next recording in the folder repairs a killed one by itself, and leaves alone one that another
    /// pipcam is still writing.
    func testTheNextRecordingRepairsAKilledOneBesideItButNotOneStillRecording() throws {
        let folder = try Paths.scratch("killed-beside")
        let running = try Command.start([Paths.pipcam, "record", "\(folder)/running.mkv", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml",
                                         "--preset", "low", "--duration", "30"])
        let deadline = Date().addingTimeInterval(20)
        while (try? FileManager.default.attributesOfItem(atPath: "\(folder)/running.mkv")[.size] as? Int ?? 0) ?? 0 < 50_000 && Date() < deadline { usleep(50_000) }
        let killed = try Self.recordAndKill("\(folder)/lecture.mkv", after: 2, jitter: 0)

        let next = try Command.run([Paths.pipcam, "record", "\(folder)/next.mkv", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml",
                                    "--preset", "low", "--duration", "1"])
        XCTAssertEqual(next.status, 0, next.error)
        XCTAssertTrue(next.error.contains("repaired an unfinished recording: \(killed.path)"), next.error)
        XCTAssertFalse(next.error.contains("running.mkv"), "a recording still being written is not touched: \(next.error)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(try MediaProbe(path: killed.path).duration), killed.recorded - 2)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: killed.path), "")

        running.signal(SIGINT)
        XCTAssertEqual(running.wait().status, 0)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: "\(folder)/running.mkv"), "", "the other recording ended as usual")
    }

    func testRepairRefusesWhatItCannotRepairInOneLine() throws {
        let folder = try Paths.scratch("repair-refused")
        try "not a video".write(toFile: "\(folder)/text.mkv", atomically: true, encoding: .utf8)
        let cases: [(arguments: [String], expected: String)] = [
            (["\(folder)/absent.mkv"], "absent.mkv: no such file"),
            (["\(folder)/text.mkv"], "text.mkv is not a Matroska file"),
            ([folder], "no such file"),
        ]
        for (arguments, expected) in cases {
            let result = try Command.run([Paths.pipcam, "repair"] + arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.error.contains(expected), "\(arguments): \(result.error)")
            XCTAssertEqual(result.error.split(separator: "\n").count, 1, "one line: \(result.error)")
        }
        // A file cut off before its first picture has nothing to keep, and says so.
        let killed = try Self.recordAndKill("\(folder)/early.mkv", after: 1, jitter: 0)
        let head = try XCTUnwrap(FileManager.default.contents(atPath: killed.path)).prefix(600)
        try head.write(to: URL(fileURLWithPath: "\(folder)/head.mkv"))
        let result = try Command.run([Paths.pipcam, "repair", "\(folder)/head.mkv"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("holds no whole picture"), result.error)
        // Repaired into another file, the original stays as it was.
        let before = try XCTUnwrap(FileManager.default.contents(atPath: killed.path))
        let copy = try Command.run([Paths.pipcam, "repair", killed.path, "\(folder)/copy.mkv"])
        XCTAssertEqual(copy.status, 0, copy.error)
        XCTAssertEqual(FileManager.default.contents(atPath: killed.path), before)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: "\(folder)/copy.mkv"), "")
    }

    /// Whether the file has an index (Cues) that its seek table points to, as mkvinfo reads it.
    private static func hasIndex(_ path: String) throws -> Bool {
        let elements = try Command.run(["mkvinfo", "-v", "-v", path]).output
        return elements.contains("(KaxCues)") && elements.contains("|+ Cues at")
    }
}
