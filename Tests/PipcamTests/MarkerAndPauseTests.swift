import Foundation
import PipcamTestSupport
import XCTest

/// Markers and pauses in real recordings of the sync camera and microphone: chapters read back by
/// ffprobe from the file, from the file repaired after a kill, and from its MP4 export; a paused
/// stretch left out of the file with picture and sound still in step.
final class MarkerAndPauseTests: XCTestCase {
    private let description = "cameras:\n  - name: flash\n    synthetic: sync\nmicrophones:\n  - name: beeps\n    synthetic: sync\n"
    private let picture = 1.0 / 30

    private func chapters(_ path: String) throws -> [(title: String, time: Double)] {
        let output = try Command.run(["ffprobe", "-v", "error", "-show_entries", "chapter=start_time:chapter_tags=title", "-of", "csv=p=0", path]).output
        return output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", maxSplits: 1)
            guard fields.count == 2, let time = Double(fields[0]) else { return nil }
            return (String(fields[1]), time)
        }
    }

    /// Sets a marker at each of `times` (recording seconds) over the control socket; returns the
    /// markers' answers: title, time in the file, and the recording's time when asked.
    private func mark(_ control: ControlClient, at times: [Double]) throws -> [(title: String, time: Double, asked: Double)] {
        try times.enumerated().map { index, time in
            try control.waitUntilElapsed(time)
            let answer = try control.send(#"{"command":"marker","title":"question \#(index + 1)"}"#)
            let marker = try XCTUnwrap(answer["marker"] as? [String: Any], "\(answer)")
            return (try XCTUnwrap(marker["title"] as? String), try XCTUnwrap(marker["time"] as? Double), try XCTUnwrap(answer["elapsed"] as? Double))
        }
    }

    func testThreeMarkersAreChaptersInTheFileAndInItsExport() throws {
        let folder = try Paths.scratch("markers")
        try description.write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/talk.mkv"
        let recording = try Command.start([Paths.pipcam, "record", path, "--pipeline", "\(folder)/sync.yaml", "--duration", "10",
                                           "--control", "\(folder)/control.sock", "--events", "\(folder)/events.jsonl"])
        let marked = try mark(try ControlClient(path: "\(folder)/control.sock"), at: [2, 5, 8])
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        // Each marker where it was set: nothing paused, so at the recording's time when asked (read back
        // after the marker is synced to the disk, which a busy disk makes a moment later).
        for marker in marked { XCTAssertEqual(marker.time, marker.asked, accuracy: 0.25, "\(marker)") }
        let found = try chapters(path)
        XCTAssertEqual(found.map(\.title), ["question 1", "question 2", "question 3"])
        for (chapter, marker) in zip(found, marked) { XCTAssertEqual(chapter.time, marker.time, accuracy: picture, "\(chapter)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/.talk.mkv.markers"), "the journal goes once the chapters are in the file")
        XCTAssertEqual(try MediaProbe.readerWarnings(path: path), "")
        let events = try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8).split(separator: "\n").filter { $0.contains(#""event":"marker""#) }
        XCTAssertEqual(events.count, 3, "\(events)")
        XCTAssertTrue(result.output.contains(": question 2\n"), "the summary lists the markers: \(result.output)")

        let export = "\(folder)/talk.mp4"
        let exported = try Command.run([Paths.pipcam, "export", path, export])
        XCTAssertEqual(exported.status, 0, exported.error)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: export), "")
        let inExport = try chapters(export)
        XCTAssertEqual(inExport.map(\.title), found.map(\.title))
        for (chapter, marker) in zip(inExport, marked) { XCTAssertEqual(chapter.time, marker.time, accuracy: picture, "\(chapter)") }
    }

    /// Killed with -9, the file has no chapters yet; `pipcam repair` finds them beside it and writes them in.
    func testMarkersSurviveAKillAndTheRepairWritesThem() throws {
        let folder = try Paths.scratch("markers-kill")
        try description.write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/talk.mkv"
        let recording = try Command.start([Paths.pipcam, "record", path, "--pipeline", "\(folder)/sync.yaml", "--control", "\(folder)/control.sock"])
        let control = try ControlClient(path: "\(folder)/control.sock")
        let marked = try mark(control, at: [2, 4, 6])
        try control.waitUntilElapsed(8)
        recording.signal(SIGKILL)
        _ = recording.wait()
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/.talk.mkv.markers"), "the markers are kept beside the file as they are set")
        let repair = try Command.run([Paths.pipcam, "repair", path])
        XCTAssertEqual(repair.status, 0, repair.error)
        let found = try chapters(path)
        XCTAssertEqual(found.map(\.title), ["question 1", "question 2", "question 3"])
        for (chapter, marker) in zip(found, marked) { XCTAssertEqual(chapter.time, marker.time, accuracy: picture, "\(chapter)") }
        XCTAssertEqual(try MediaProbe.decodeErrors(path: path), "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/.talk.mkv.markers"))
    }

    /// A recording in parts: each part holds the markers set while it was written.
    func testEachPartHoldsItsOwnMarkers() throws {
        let folder = try Paths.scratch("markers-parts")
        try description.write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/talk.mkv"
        let recording = try Command.start([Paths.pipcam, "record", path, "--pipeline", "\(folder)/sync.yaml", "--segment", "3s", "--duration", "8",
                                           "--control", "\(folder)/control.sock"])
        let marked = try mark(try ControlClient(path: "\(folder)/control.sock"), at: [1.5, 4.5])
        XCTAssertEqual(recording.wait().status, 0)
        let first = try chapters(path), second = try chapters("\(folder)/talk-2.mkv")
        XCTAssertEqual(first.map(\.title), ["question 1"])
        XCTAssertEqual(second.map(\.title), ["question 2"])
        XCTAssertEqual(second.first?.time ?? 0, marked[1].time, accuracy: picture)
        XCTAssertEqual(try chapters("\(folder)/talk-3.mkv").count, 0)
    }

    /// Paused for three seconds of a ten-second recording: a seven-second file, no gap in its pictures'
    /// times, a chapter where it resumed, and flash and beep in step after the resume.
    func testAPauseIsLeftOutOfTheFileWithPictureAndSoundInStep() throws {
        let folder = try Paths.scratch("pause")
        try description.write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/paused.mkv"
        // The duration is the file's: seven seconds recorded, ten run.
        let recording = try Command.start([Paths.pipcam, "record", path, "--pipeline", "\(folder)/sync.yaml", "--duration", "7",
                                           "--control", "\(folder)/control.sock", "--events", "\(folder)/events.jsonl"])
        let control = try ControlClient(path: "\(folder)/control.sock")
        try control.waitUntilElapsed(3)
        let paused = try control.send(#"{"command":"pause"}"#)
        XCTAssertEqual(paused["ok"] as? Bool, true, "\(paused)")
        let pausedAt = try XCTUnwrap(paused["elapsed"] as? Double)
        try control.waitUntilElapsed(pausedAt + 3)
        let status = try control.send(#"{"command":"status"}"#)
        XCTAssertGreaterThan(status["paused"] as? Double ?? 0, 2.5, "the status says how long it has been paused: \(status)")
        let again = try control.send(#"{"command":"pause"}"#)
        XCTAssertEqual(again["error"] as? String, "the recording is paused already")
        let resumed = try control.send(#"{"command":"resume"}"#)
        let resumedAt = try XCTUnwrap(resumed["resumed-at"] as? Double, "\(resumed)")
        // Still recording at 9.5 s: the paused stretch is not in the file's seven seconds.
        try control.waitUntilElapsed(9.5)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)

        let probe = try MediaProbe(path: path)
        XCTAssertEqual(probe.duration ?? 0, 7, accuracy: picture + 0.01)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: path), "")
        let times = try MediaProbe.videoFrameTimes(path: path)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        XCTAssertLessThan(gaps.max() ?? 1, picture * 1.5, "the pictures' times go on through the pause")
        XCTAssertEqual(Double(times.count), 7 / picture, accuracy: 2)
        let found = try chapters(path)
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.title.hasPrefix("Resumed after ") == true, "\(found)")
        XCTAssertEqual(found.first?.time ?? 0, resumedAt, accuracy: picture)
        XCTAssertEqual(resumedAt, pausedAt, accuracy: 0.1, "the file resumes where it paused")
        XCTAssertTrue(result.output.contains("paused once"), result.output)
        // Flash and beep after the resume: in step, as in any recording (half a picture, and a little).
        let sync = try SyncOffsets.read(path: path, video: 0, region: (x: 400, y: 250, width: 160, height: 120), audio: 0)
        let after = sync.pairs.filter { $0.flash > resumedAt + 0.3 }
        XCTAssertGreaterThanOrEqual(after.count, 2, "\(sync.flashes) \(sync.beeps)")
        for pair in after {
            XCTAssertEqual(pair.offset, 0, accuracy: picture / 2 + 0.003, String(format: "beep %.4f s, flash %.4f s", pair.beep, pair.flash))
        }
        let events = try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8)
        XCTAssertTrue(events.contains(#""event":"paused""#) && events.contains(#""event":"resumed""#), events)
    }
}
