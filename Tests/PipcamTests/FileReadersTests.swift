import Foundation
import PipcamTestSupport
import XCTest

/// Recordings that every reader takes as they are: copied into an MP4 by ffmpeg without a warning however
/// the recording ended, decoded without a complaint about timestamps, with each track named, only the
/// picture and the mix played by default, and each track's duration stated.
final class FileReadersTests: XCTestCase {
    /// A recording ended by a signal `after` seconds of file on disk, or by --duration.
    private static func record(_ path: String, extra: [String] = [], signal: Int32? = nil, after: Double = 0) throws -> CommandResult {
        let recording = try Command.start([Paths.pipcam, "record", path, "--preset", "low"] + extra)
        guard let signal else { return recording.wait() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: path) && Date() < deadline { usleep(20_000) }
        Thread.sleep(forTimeInterval: after)
        recording.signal(signal)
        return recording.wait()
    }

    func testRecordingsEndedEveryWayCopyIntoAnMP4WithoutAWarning() throws {
        let folder = try Paths.scratch("readers")
        let demo = ["--pipeline", "\(Paths.repository)/pipelines/demo.yaml"]
        try """
        preset: low
        frame-rate: 120
        cameras:
          - name: fast
            synthetic: smpte
          - name: ball
            synthetic: ball
        microphones:
          - name: tone
            synthetic: 440
        """.write(toFile: "\(folder)/fast.yaml", atomically: true, encoding: .utf8)
        let endings: [(name: String, extra: [String], signal: Int32?, after: Double)] = [
            ("duration", demo + ["--duration", "2"], nil, 0),
            ("sigint-at-once", demo, SIGINT, 0.3),
            ("sigint", demo, SIGINT, 2.4),
            ("sigterm", demo, SIGTERM, 1.7),
            ("sigterm-late", demo, SIGTERM, 3.15),
            ("fast-120fps", ["--pipeline", "\(folder)/fast.yaml", "--duration", "2"], nil, 0),
            ("fast-120fps-sigterm", ["--pipeline", "\(folder)/fast.yaml"], SIGTERM, 1.9),
        ]
        for ending in endings {
            let path = "\(folder)/\(ending.name).mkv"
            let result = try Self.record(path, extra: ending.extra, signal: ending.signal, after: ending.after)
            XCTAssertEqual(result.status, 0, "\(ending.name): \(result.error)")
            XCTAssertEqual(try MediaProbe.remuxWarnings(path: path), "", ending.name)
            let decoded = try Command.run(["ffmpeg", "-v", "warning", "-i", path, "-map", "0:v:0", "-f", "null", "-"]).error
            XCTAssertFalse(decoded.contains("non monotonically increasing"), "\(ending.name): \(decoded)")
        }
    }

    func testTracksAreNamedOnlyThePictureAndTheMixPlayByDefaultAndEachStatesItsDuration() throws {
        let folder = try Paths.scratch("tracks")
        try Fixtures.everyTrackOfItsOwn.write(toFile: "\(folder)/tracks.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/out.mkv"
        let result = try Self.record(path, extra: ["--pipeline", "\(folder)/tracks.yaml", "--duration", "2"])
        XCTAssertEqual(result.status, 0, result.error)
        let probe = try Command.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", path]).output
        let streams = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(probe.utf8)) as? [String: Any])?["streams"] as? [[String: Any]])
        let tags = streams.map { $0["tags"] as? [String: String] ?? [:] }
        XCTAssertEqual(tags.map { $0["title"] }, ["Picture: front + side", "Mix", "voice", "room", "front", "side"])
        let defaults = streams.map { ($0["disposition"] as? [String: Int])?["default"] }
        XCTAssertEqual(defaults, [1, 1, 0, 0, 0, 0], "the picture and the mix play; the others are there to choose")
        for (index, tag) in tags.enumerated() {
            let duration = try XCTUnwrap(tag["DURATION"], "track \(index) states its duration: \(tag)")
            let seconds = duration.split(separator: ":").reduce(0.0) { $0 * 60 + (Double($1) ?? .nan) }
            XCTAssertEqual(seconds, 2, accuracy: 0.1, "track \(index): \(duration)")
        }
        let mkvmerge = try Command.run(["mkvmerge", "--identify", path])
        XCTAssertEqual(mkvmerge.status, 0, mkvmerge.output)
        XCTAssertFalse(mkvmerge.output.contains("Warning"), mkvmerge.output)
        XCTAssertEqual(try MediaProbe.remuxWarnings(path: path), "")
    }
}

/// `pipcam export`: an MP4 for editors, its pictures the recording's own bytes.
final class ExportCommandTests: XCTestCase {
    func testExportCopiesEveryPictureAndMakesTheSoundAAC() throws {
        let folder = try Paths.scratch("export")
        try Fixtures.everyTrackOfItsOwn.write(toFile: "\(folder)/session.yaml", atomically: true, encoding: .utf8)
        let recording = "\(folder)/talk.mkv", exported = "\(folder)/talk.mp4"
        let recorded = try Command.run([Paths.pipcam, "record", recording, "--pipeline", "\(folder)/session.yaml", "--preset", "low", "--duration", "2"])
        XCTAssertEqual(recorded.status, 0, recorded.error)

        let result = try Command.run([Paths.pipcam, "export", recording, exported])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(result.output, "exported \(exported)\n")
        let probe = try MediaProbe(path: exported)
        XCTAssertEqual(probe.videoStreams.map(\.codecName), ["h264", "h264", "h264"], "the picture and each camera's own track")
        XCTAssertEqual(probe.audioStreams.map(\.codecName), ["aac", "aac", "aac"], "the mix and each microphone")
        XCTAssertEqual(try XCTUnwrap(probe.duration), try XCTUnwrap(try MediaProbe(path: recording).duration), accuracy: 0.1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: exported), "")
        // Not re-encoded: each picture track is the recording's, byte for byte.
        for track in 0..<3 {
            XCTAssertEqual(try Self.pictureDigest(recording, track: track), try Self.pictureDigest(exported, track: track), "picture track \(track)")
        }
        XCTAssertEqual(try ToneProbe.frequency(path: exported, stream: 1), 440, accuracy: 15, "the first microphone's own track")

        let again = try Command.run([Paths.pipcam, "export", recording, exported])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertEqual(again.error, "Error: \(exported) exists; pass --force to overwrite it\n")
        let wrongName = try Command.run([Paths.pipcam, "export", recording, "\(folder)/talk.mov"])
        XCTAssertEqual(wrongName.error, "Error: \(folder)/talk.mov needs a .mp4 extension\n")
        let notMatroska = try Command.run([Paths.pipcam, "export", exported, "\(folder)/other.mp4"])
        XCTAssertEqual(notMatroska.error, "Error: \(exported) is not a Matroska file\n")
    }

    /// The digest of a picture track's coded pictures, as they are stored.
    private static func pictureDigest(_ path: String, track: Int) throws -> String {
        let result = try Command.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:\(track)", "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "md5", "-"])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
