import Foundation
import PipcamTestSupport
import XCTest

/// `validate` reads each clip as `record` will: a clip that is not a video, or that `record` would refuse
/// once it starts (or wait for in vain), is refused first, in one line naming the camera and the file,
/// within 5 s; so is a camera named by a path that is not a camera.
final class ClipCheckTests: XCTestCase {
    func testAClipThatWillNotPlayIsRefusedNamingItsCameraAndFile() throws {
        let folder = try Paths.scratch("clip-check")
        let fine = "\(folder)/fine.mp4", cut = "\(folder)/cut.mp4", sound = "\(folder)/sound.ogg"
        XCTAssertEqual(try Command.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15", "-t", "2", "-c:v", "libx264", fine]).status, 0)
        XCTAssertEqual(try Command.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine", "-t", "1", sound]).status, 0)
        try Data(try Data(contentsOf: URL(fileURLWithPath: fine)).prefix(3000)).write(to: URL(fileURLWithPath: cut))
        let empty = "\(folder)/empty.y4m"
        try "YUV4MPEG2 W320 H240 F15:1 Ip A1:1 C420jpeg\nFRAME\n".write(toFile: empty, atomically: true, encoding: .ascii)
        let cases: [(clip: String, said: String?)] = [
            (fine, nil),
            ("/etc/passwd", "the clip /etc/passwd cannot be played: This appears to be a text file"),
            (cut, "the clip \(cut) cannot be played: This file contains no playable streams."),
            (sound, "the clip \(sound) holds no picture"),
            (empty, "the clip \(empty) holds no whole picture"),
            (Paths.pipcam, "the clip \(Paths.pipcam) cannot be played: no decoder is installed for it (application/x-executable)"),
        ]
        for (clip, said) in cases {
            try "cameras:\n  - name: lecture\n    file: \(clip)\n".write(toFile: "\(folder)/session.yaml", atomically: true, encoding: .utf8)
            let started = Date()
            let result = try Command.run([Paths.pipcam, "validate", "--pipeline", "\(folder)/session.yaml"])
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "within seconds: \(clip)")
            if let said {
                XCTAssertNotEqual(result.status, 0, clip)
                XCTAssertEqual(result.error, "Error: camera 'lecture': \(said)\n")
            } else {
                XCTAssertEqual(result.status, 0, result.error)
            }
        }
    }

    /// A camera named by a path that is there but is not a camera is refused by its type, a FIFO never
    /// opened, a device asked what it is; a path that is not there is a camera not plugged in here.
    func testValidateRefusesDevicePathsThatAreNotCameras() throws {
        let folder = try Paths.scratch("device-paths")
        let fifo = "\(folder)/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let cases: [(String, String?)] = [
            (fifo, "is a pipe (FIFO), not a camera"),
            (folder, "is a folder, not a camera"),
            (Paths.pipcam, "is a file, not a camera"),
            ("/dev/null", "is a device but not a camera (it does not capture video)"),
            ("/dev/video-not-plugged-in", nil),
        ]
        for (path, said) in cases {
            try "cameras:\n  - name: desk\n    device: \(path)\n".write(toFile: "\(folder)/session.yaml", atomically: true, encoding: .utf8)
            let started = Date()
            let result = try Command.run([Paths.pipcam, "validate", "--pipeline", "\(folder)/session.yaml"])
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "within seconds: \(path)")
            if let said {
                XCTAssertNotEqual(result.status, 0, path)
                XCTAssertEqual(result.error, "Error: \(folder)/session.yaml:2:5: cameras[0]: camera 'desk': \(path) \(said)\n")
            } else {
                XCTAssertEqual(result.status, 0, result.error)
                XCTAssertTrue(result.error.contains("is not present here; checked with a synthetic stand-in"), result.error)
            }
        }
    }

    /// YUV4MPEG2 headers y4mdec refuses, each with a whole picture's worth of bytes after it, and what
    /// the refusal says.
    private static let badHeaders = [
        ("zero-width", "W0 H240 F30:1 C420jpeg", "a picture of 0x240"),
        ("negative-height", "W320 H-240 F30:1 C420jpeg", "a picture of 320x-240"),
        ("huge", "W99999 H99999 F30:1 C420jpeg", "a picture of 99999x99999"),
        ("zero-rate", "W320 H240 F0:1 C420jpeg", "a frame rate of 0:1"),
        ("unknown-colours", "W320 H240 F30:1 C411", "colour space C411"),
    ]

    func testValidateRefusesEachMalformedRawClipInOneLineNamingCameraAndFile() throws {
        let folder = try Paths.scratch("clip-check-y4m")
        for (name, header, reason) in Self.badHeaders {
            let clip = "\(folder)/\(name).y4m"
            try (Data("YUV4MPEG2 \(header)\nFRAME\n".utf8) + Data(count: 320 * 240 * 3 / 2)).write(to: URL(fileURLWithPath: clip))
            assertRefused(try Self.description(in: folder, clip: clip), naming: clip, reason: reason)
        }
    }

    /// A Matroska file cut off after its header describes a picture track and holds no picture: `record`
    /// would wait for a first picture that never comes.
    func testValidateAndRecordRefuseAMatroskaClipWithAHeaderAndNoPicture() throws {
        let folder = try Paths.scratch("clip-check-mkv")
        let clip = "\(folder)/header-only.mkv"
        let made = try Command.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=5", "!", "video/x-raw,width=320,height=240",
                                    "!", "x264enc", "!", "matroskamux", "!", "filesink", "location=\(clip)"])
        XCTAssertEqual(made.status, 0, made.error)
        // Everything before the first cluster (the EBML header, segment info and tracks) and nothing after.
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        let cluster = try XCTUnwrap(whole.firstRange(of: Data([0x1F, 0x43, 0xB6, 0x75])), "a cluster in \(clip)")
        try whole.prefix(upTo: cluster.lowerBound).write(to: URL(fileURLWithPath: clip))
        let description = try Self.description(in: folder, clip: clip)
        assertRefused(description, naming: clip, reason: "holds no picture")
        assertRefused(description, naming: clip, reason: "holds no picture", command: ["record", "\(folder)/out.mkv"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out.mkv"), "nothing recorded")
    }

    /// A well-formed clip of either kind is still valid.
    func testValidateTakesClipsThatPlay() throws {
        let folder = try Paths.scratch("clip-check-good")
        let clip = "\(folder)/good.y4m"
        try makeY4MClip(at: clip, frames: 3, width: 322, height: 180)  // padded rows: read by y4mdec
        let result = try Command.run([Paths.pipcam, "validate", "--pipeline", try Self.description(in: folder, clip: clip)])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.output.contains("valid (1 camera, 0 microphones"), result.output)
    }

    private func assertRefused(_ description: String, naming clip: String, reason: String, command: [String] = ["validate"],
                               file: StaticString = #filePath, line: UInt = #line) {
        let started = Date()
        guard let result = try? Command.run(["timeout", "20", Paths.pipcam] + command + ["--pipeline", description]) else {
            return XCTFail("pipcam did not run", file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(clip): refused within 5 s", file: file, line: line)
        XCTAssertEqual(result.status, 1, "\(clip): \(result.error)", file: file, line: line)
        let lines = result.error.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line: \(result.error)", file: file, line: line)
        for expected in ["camera 'clip'", clip, reason] {
            XCTAssertTrue(result.error.contains(expected), "'\(expected)' in: \(result.error)", file: file, line: line)
        }
    }

    /// A description whose one camera plays `clip`.
    private static func description(in folder: String, clip: String) throws -> String {
        let path = "\(folder)/\(UUID().uuidString.prefix(8)).yaml"
        try "cameras:\n  - name: clip\n    file: \(clip)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
