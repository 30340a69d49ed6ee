import Foundation
import PipcamTestSupport
import XCTest

/// A recording in parts (`--segment`, `output.segment`): each part plays alone, every track of it from a
/// key frame, the parts together are the recording, and `keep` deletes the oldest.
final class SegmentedRecordingTests: XCTestCase {
    /// The low preset's picture rate, and so every camera's.
    private static let frameTime = 1.0 / 15
    /// How far a part's length may be from the cut: its picture ends within a picture of it, and its
    /// length is its longest track's, whose sound may end an Opus frame (20 ms) later (4.0735 s once).
    private static let partLength = frameTime + 0.02

    private func record(in folder: String, description: String, extra: [String] = []) throws -> CommandResult {
        try description.write(toFile: "\(folder)/session.yaml", atomically: true, encoding: .utf8)
        return try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", "\(folder)/session.yaml", "--preset", "low",
                                "--duration", "6"] + extra)
    }

    private func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mkv") }.sorted()
    }

    /// One part on its own: read by every reader without a word, each video track beginning with a key
    /// frame, each track named; returns its duration.
    private func assertPlaysAlone(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        XCTAssertEqual(try MediaProbe.readerWarnings(path: path), "", path, file: file, line: line)
        XCTAssertEqual(try MediaProbe.remuxWarnings(path: path), "", path, file: file, line: line)
        let probe = try MediaProbe(path: path)
        XCTAssertEqual(probe.videoStreams.count, 3, "the picture and each camera's own track: \(path)", file: file, line: line)
        for stream in 0..<probe.videoStreams.count {
            let first = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:\(stream)", "-read_intervals", "%+#1",
                                         "-show_entries", "frame=key_frame", "-of", "csv=p=0", path]).output
            XCTAssertEqual(first.split(whereSeparator: { $0 == "," || $0 == "\n" }).first, "1", "video track \(stream) of \(path) begins with a key frame",
                           file: file, line: line)
            XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: path, stream: stream)) * Self.frameTime, 2, accuracy: Self.frameTime * 1.01,
                           "video track \(stream) of \(path) holds its two seconds", file: file, line: line)
        }
        let titles = try Command.run(["ffprobe", "-v", "error", "-show_entries", "stream_tags=title", "-of", "csv=p=0", path]).output
        XCTAssertEqual(titles.split(separator: "\n"), ["Picture: front + side", "Mix", "voice", "room", "front", "side"], path, file: file, line: line)
        return try XCTUnwrap(probe.duration, path, file: file, line: line)
    }

    func testASixSecondRecordingInPartsOfTwoSecondsIsThreePartsThatEachPlayAlone() throws {
        let folder = try Paths.scratch("segments")
        let result = try record(in: folder, description: Fixtures.everyTrackOfItsOwn, extra: ["--segment", "2s"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try files(in: folder), ["out-2.mkv", "out-3.mkv", "out.mkv"])
        XCTAssertTrue(result.output.hasPrefix("recorded 6.00 s to \(folder)/out.mkv … \(folder)/out-3.mkv (3 parts)\n"), result.output)
        var total = 0.0
        for name in ["out.mkv", "out-2.mkv", "out-3.mkv"] {
            let duration = try assertPlaysAlone("\(folder)/\(name)")
            XCTAssertEqual(duration, 2, accuracy: Self.partLength, name)
            total += duration
        }
        XCTAssertEqual(total, 6, accuracy: Self.frameTime, "the parts together are the recording")
        // The picture goes on from part to part, one picture apart.
        let ends = try ["out.mkv", "out-2.mkv"].map { try XCTUnwrap(try MediaProbe.videoFrameTimes(path: "\(folder)/\($0)").last) }
        let starts = try ["out-2.mkv", "out-3.mkv"].map { try XCTUnwrap(try MediaProbe.videoFrameTimes(path: "\(folder)/\($0)").first) }
        for (end, start) in zip(ends, starts) { XCTAssertEqual(start - end, Self.frameTime, accuracy: 0.002) }
    }

    func testKeepTwoLeavesTheLastTwoParts() throws {
        let folder = try Paths.scratch("segments-keep")
        let description = Fixtures.everyTrackOfItsOwn + "\n  segment:\n    time: 2s\n  keep: 2\n"
        let result = try record(in: folder, description: description)
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try files(in: folder), ["out-2.mkv", "out-3.mkv"], "the oldest part deleted")
        XCTAssertTrue(result.output.contains("1 older parts deleted, as keep asks"), result.output)
        // Up to a picture either side of the part's boundary, read to the millisecond (4.067 s once).
        XCTAssertEqual(try MediaProbe.videoFrameTimes(path: "\(folder)/out-3.mkv").first ?? 0, 4, accuracy: Self.frameTime + 0.001,
                       "the last part is the last two seconds")
        for name in ["out-2.mkv", "out-3.mkv"] { _ = try assertPlaysAlone("\(folder)/\(name)") }
    }

    /// A recording in parts killed in its second part: the part before is whole, and the next recording
    /// beside it repairs the cut-off one, its duration counted from where the part began, with at most the
    /// last two seconds lost.
    func testAKilledRecordingInPartsKeepsItsWholePartsAndIsRepairedBesideTheNext() throws {
        let folder = try Paths.scratch("segments-killed")
        try Fixtures.everyTrackOfItsOwn.write(toFile: "\(folder)/session.yaml", atomically: true, encoding: .utf8)
        let events = "\(folder)/events.jsonl"
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", "\(folder)/session.yaml", "--preset", "low",
                                           "--segment", "4s", "--events", events])
        // The events file has a pressure sample about every second, timed on the recording's clock.
        var recorded = 0.0
        let deadline = Date().addingTimeInterval(40)
        while recorded < 7.5 && Date() < deadline {
            let lines = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            recorded = lines.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["time"] as? Double
            }.max() ?? 0
            usleep(20_000)
        }
        recording.signal(SIGKILL)
        _ = recording.wait()
        XCTAssertEqual(try XCTUnwrap(try MediaProbe(path: "\(folder)/out.mkv").duration), 4, accuracy: Self.partLength, "the first part is whole")

        let next = try Command.run([Paths.pipcam, "record", "\(folder)/next.mkv", "--pipeline", "\(folder)/session.yaml", "--preset", "low", "--duration", "1"])
        XCTAssertEqual(next.status, 0, next.error)
        XCTAssertTrue(next.error.contains("repaired an unfinished recording: \(folder)/out-2.mkv"), next.error)
        let kept = try XCTUnwrap(try MediaProbe(path: "\(folder)/out-2.mkv").duration)
        XCTAssertGreaterThanOrEqual(kept, recorded - 4 - 2, "at most two seconds lost (killed at \(recorded) s)")
        XCTAssertLessThan(kept, recorded - 4 + 0.5, "counted from where the part began, not from the recording's start")
        XCTAssertEqual(try MediaProbe.readerWarnings(path: "\(folder)/out-2.mkv"), "")
    }

    func testAPartIsNeverAnExistingFileAndBadValuesAreOneLine() throws {
        let folder = try Paths.scratch("segments-names")
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: "\(folder)/out-2.mkv"))
        let result = try record(in: folder, description: Fixtures.everyTrackOfItsOwn, extra: ["--segment", "2s"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try files(in: folder), ["out-2.mkv", "out-3.mkv", "out-4.mkv", "out.mkv"], "out-2.mkv is skipped")
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out-2.mkv", encoding: .utf8), "someone else's")

        let refusals: [([String], String)] = [
            (["--segment", "0.5s"], "Error: --segment: a part lasts 1.0…86400.0 seconds, not 0.5s"),
            (["--segment", "banana"], "Error: --segment: a part's length is a time (10m, 90s, 1h) or a size (500MB, 2GB), not 'banana'"),
            (["--segment", "10KB"], "Error: --segment: a part holds at least 1MB, not 0.00976562MB"),
            (["--keep", "2"], "Error: --keep deletes the oldest parts of a recording in parts: give --segment too (or output.segment)"),
            (["--segment", "2s", "--keep", "0"], "Error: --keep: keep is 1…100000 parts, not 0"),
        ]
        for (extra, error) in refusals {
            let refused = try Command.run([Paths.pipcam, "record", "\(folder)/refused.mkv", "--pipeline", "\(folder)/session.yaml", "--duration", "1"] + extra)
            XCTAssertNotEqual(refused.status, 0, "\(extra)")
            XCTAssertEqual(refused.error.split(separator: "\n").first.map(String.init), error, "\(extra)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/refused.mkv"))
        }
        try (Fixtures.everyTrackOfItsOwn + "\n  keep: 2\n").write(toFile: "\(folder)/keep.yaml", atomically: true, encoding: .utf8)
        let keepAlone = try Command.run([Paths.pipcam, "validate", "--pipeline", "\(folder)/keep.yaml"])
        XCTAssertNotEqual(keepAlone.status, 0)
        XCTAssertTrue(keepAlone.error.contains("keep.yaml:14:9: "), keepAlone.error)
        XCTAssertTrue(keepAlone.error.contains("'keep' deletes the oldest parts: it needs 'segment'"), keepAlone.error)
    }
}
