import Foundation
import PipcamTestSupport
import XCTest

/// A full disk never costs a recording or hangs pipcam: refused before starting with too little room,
/// stopped cleanly (the file finished) when the disk is about to fill, and stopped at once when it fills
/// under pipcam's feet. Each test records onto a small tmpfs of its own, which takes root to mount.
final class DiskSpaceTests: XCTestCase {
    private var mounts: [String] = []

    override func tearDown() {
        for mount in mounts { _ = try? Command.run(["umount", mount]) }
        mounts = []
        super.tearDown()
    }

    /// A fresh tmpfs of `megabytes` in the test's scratch folder.
    private func smallDisk(_ name: String, megabytes: Int) throws -> String {
        let folder = try Paths.scratch(name) + "/disk"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mount = try Command.run(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", folder])
        try XCTSkipUnless(mount.status == 0, "mounting a small disk takes root: \(mount.error)")
        mounts.append(folder)
        return folder
    }

    /// What pipcam said on standard error, less the status line and the line that says it started.
    private func said(_ error: String) -> [String] {
        error.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
            .filter { !$0.hasPrefix("recording ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    func testAFullDiskIsRefusedBeforeAnythingStarts() throws {
        let disk = try smallDisk("disk-full-at-start", megabytes: 1)
        _ = try Command.run(["sh", "-c", "dd if=/dev/zero of=\(disk)/filler bs=64k 2>/dev/null; true"])
        let result = try Command.run([Paths.pipcam, "record", "\(disk)/out.mkv", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--duration", "3"])
        XCTAssertNotEqual(result.status, 0)
        let lines = said(result.error)
        XCTAssertEqual(lines.count, 1, "one line: \(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("Error: not enough disk space: 0 MiB free for \(disk)/out.mkv, about 0 s at ") == true, "\(lines)")
        XCTAssertTrue(lines.first?.hasSuffix(" Mbit/s; free some space or record elsewhere") == true, "\(lines)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(disk)/out.mkv"), "nothing is written")
    }

    /// Something else takes the disk while recording, leaving 3 MiB: pipcam stops while the file can still
    /// be finished, with its duration and index.
    func testADiskAboutToFillStopsTheRecordingWithTheFileFinished() throws {
        let disk = try smallDisk("disk-filling", megabytes: 48)
        let result = try recordWhile(disk, filling: "free=$(df -B1 --output=avail \(disk) | tail -1); fallocate -l $((free - 3145728)) \(disk)/filler")
        assertStoppedForAFullDisk(result, file: "\(disk)/out.mkv")
        let probe = try MediaProbe(path: "\(disk)/out.mkv")
        let duration = try XCTUnwrap(probe.duration, "the file is finished: it states its duration")
        XCTAssertLessThan(duration, 15, "stopped soon after the disk filled, long before --duration")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(disk)/out.mkv"), "")
        XCTAssertEqual(try MediaProbe.remuxWarnings(path: "\(disk)/out.mkv"), "")
    }

    /// The disk fills at once (nothing left to finish the file with): pipcam stops at once, keeps what
    /// reached the disk, and says so in one line.
    func testADiskThatFillsAtOnceStopsTheRecordingAndKeepsWhatWasWritten() throws {
        let disk = try smallDisk("disk-filled", megabytes: 48)
        let result = try recordWhile(disk, filling: "dd if=/dev/zero of=\(disk)/filler bs=1M 2>/dev/null; true")
        assertStoppedForAFullDisk(result, file: "\(disk)/out.mkv")
        let filled = try XCTUnwrap(Double(try String(contentsOfFile: "\(disk)/../filled.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let exited = try XCTUnwrap(Double(try String(contentsOfFile: "\(disk)/../exited.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertLessThan(exited - filled, 1, "pipcam has stopped within a second of the disk filling")
        let frames = try Command.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                      "-of", "csv=p=0", "\(disk)/out.mkv"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertGreaterThan(Int(frames) ?? 0, 30, "the pictures that reached the disk play")
        let summary = try String(contentsOfFile: "\(disk)/../summary.txt", encoding: .utf8)
        XCTAssertTrue(summary.contains("picture: \(frames) frames in the file"), "the summary counts the pictures the file kept: \(summary)")
        // The muxer could not end the file; pipcam did, in the room its cut-off last block left.
        XCTAssertNotNil(try MediaProbe(path: "\(disk)/out.mkv").duration, "the file states its duration")
        XCTAssertEqual(try MediaProbe.remuxWarnings(path: "\(disk)/out.mkv"), "")
    }

    func testTheOutputMustBeAFileThatCanBeWritten() throws {
        let folder = try Paths.scratch("disk-not-a-file")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/full.mkv", withDestinationPath: "/dev/full")
        for (path, expected) in [("\(folder)/full.mkv", "Error: \(folder)/full.mkv is not a regular file; give the path of a file to write"),
                                 ("/dev/full", "Error: /dev/full needs a .mkv extension (pipcam writes Matroska)")] {
            let result = try Command.run([Paths.pipcam, "record", path, "--force", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--duration", "3"])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(said(result.error), [expected])
        }
    }

    /// A non-zero exit and one line besides warnings: "disk full: recorded N s to FILE".
    private func assertStoppedForAFullDisk(_ result: CommandResult, file: String, line: UInt = #line) {
        XCTAssertNotEqual(result.status, 0, line: line)
        let lines = said(result.error).filter { !$0.hasPrefix("warning: ") }
        XCTAssertEqual(lines.count, 1, "one line: \(lines)", line: line)
        XCTAssertTrue(lines.first?.hasPrefix("Error: disk full: recorded ") == true && lines.first?.hasSuffix(" s to \(file)") == true, "\(lines)", line: line)
    }

    /// Records the demo onto `disk` for up to 30 s, and runs `filling` once the file has grown past its
    /// first megabyte; returns when pipcam has exited. When `filling` ended and pipcam exited are in
    /// `filled.txt` and `exited.txt` beside the disk.
    private func recordWhile(_ disk: String, filling: String) throws -> CommandResult {
        let script = [
            "\(Paths.pipcam) record \(disk)/out.mkv --pipeline \(Paths.repository)/pipelines/demo.yaml --duration 30 > \(disk)/../summary.txt 2> \(disk)/../log.txt & pid=$!",
            "until [ \"$(stat -c %s \(disk)/out.mkv 2>/dev/null || echo 0)\" -gt 1048576 ]; do kill -0 $pid; sleep 0.1; done",
            filling,
            "date +%s.%N > \(disk)/../filled.txt",
            "status=0; wait $pid || status=$?",
            "date +%s.%N > \(disk)/../exited.txt",
            "cat \(disk)/../log.txt >&2; exit $status",
        ]
        return try Command.run(["sh", "-c", script.joined(separator: "\n")])
    }
}
