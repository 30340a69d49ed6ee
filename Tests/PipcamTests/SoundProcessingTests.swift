import Foundation
import PipcamTestSupport
import XCTest

/// Each microphone's processing heard in the recorded file: noise suppression, gain, the limiter; the
/// warnings for clipping and silence; `sync-check` measuring a late microphone and the offset it writes.
final class SoundProcessingTests: XCTestCase {
    private func record(_ description: String, seconds: Double, name: String) throws -> (path: String, events: [[String: Any]]) {
        let folder = try Paths.scratch(name)
        try description.write(toFile: "\(folder)/sound.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/sound.mkv"
        let result = try Command.run([Paths.pipcam, "record", path, "--pipeline", "\(folder)/sound.yaml", "--duration", String(seconds),
                                      "--events", "\(folder)/events.jsonl", "--no-throttle"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: path), "")
        let lines = try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (path, events.filter { $0["event"] as? String == "sound" })
    }

    private let camera = "cameras:\n  - name: cam\n    synthetic: ball\n"
    private let separate = "output:\n  audio: mixed-and-separate\n"

    /// Two sync microphones with the same white noise, one suppressing it: between the beeps its noise is
    /// at least 15 dB lower, and its beeps within 1 dB of the other's. Audio streams: the mix, then each
    /// microphone's own track.
    func testNoiseSuppressionHighTakesTheFloorDown15DecibelsAndKeepsTheBeeps() throws {
        let description = camera + """
            microphones:
              - name: noisy
                synthetic: sync
                noise: -30
              - name: cleaned
                synthetic: sync
                noise: -30
                noise-suppression: high

            """ + separate
        let (path, _) = try record(description, seconds: 9, name: "noise-suppression")
        // The first seconds are the suppressor learning the noise.
        let beeps = try SyncOffsets.beepTimes(path: path, audio: 1).filter { $0 >= 3 }
        XCTAssertGreaterThanOrEqual(beeps.count, 4, "\(beeps)")
        let gaps = beeps.map { ($0 + 0.3, $0 + 0.9) }, tones = beeps.map { ($0 + 0.005, $0 + 0.07) }
        let noisy = (floor: try SoundStats.levels(path: path, audio: 1, stretches: gaps).rms, beep: try SoundStats.levels(path: path, audio: 1, stretches: tones).rms)
        let cleaned = (floor: try SoundStats.levels(path: path, audio: 2, stretches: gaps).rms, beep: try SoundStats.levels(path: path, audio: 2, stretches: tones).rms)
        print(String(format: "noise suppression: floor %.1f -> %.1f dBFS, beeps %.2f -> %.2f dBFS", noisy.floor, cleaned.floor, noisy.beep, cleaned.beep))
        XCTAssertEqual(noisy.floor, -30, accuracy: 2, "the noise as added")
        XCTAssertLessThanOrEqual(cleaned.floor, noisy.floor - 15)
        XCTAssertEqual(cleaned.beep, noisy.beep, accuracy: 1)
    }

    /// A tone with 6 dB of gain is 6 dB louder than the same tone without; a tone driven 6 dB past full
    /// scale into a limiter at -1 dBFS peaks under it. Neither of these clips; the same tone driven past
    /// full scale with no limiter does, and is said to.
    func testGainAddsItsDecibelsTheLimiterHoldsItsCeilingAndOnlyAClippedToneWarns() throws {
        let gained = camera + "microphones:\n  - name: plain\n    synthetic: 440\n  - name: gained\n    synthetic: 440\n    gain: 6\n" + separate
        let (first, quiet) = try record(gained, seconds: 4, name: "gain")
        let plain = try SoundStats.levels(path: first, audio: 1, from: 1), louder = try SoundStats.levels(path: first, audio: 2, from: 1)
        print(String(format: "gain: %.2f -> %.2f dBFS RMS", plain.rms, louder.rms))
        XCTAssertEqual(louder.rms - plain.rms, 6, accuracy: 0.5)
        XCTAssertTrue(quiet.isEmpty, "a clean tone: \(quiet)")
        // The tone peaks at -8 dBFS: 14 dB of gain drive it 6 dB over full scale.
        let driven = camera + "microphones:\n  - name: limited\n    synthetic: 440\n    gain: 14\n    limiter: -1\n  - name: clipped\n    synthetic: 440\n    gain: 14\n" + separate
        let (second, warnings) = try record(driven, seconds: 4, name: "limiter")
        let limited = try SoundStats.levels(path: second, audio: 1, from: 0.5)
        print(String(format: "limiter: peak %.2f dBFS", limited.peak))
        XCTAssertLessThanOrEqual(limited.peak, -1)
        XCTAssertGreaterThan(limited.peak, -4, "held at the ceiling, not turned right down")
        XCTAssertEqual(warnings.map { "\($0["microphone"] ?? "") \($0["what"] ?? "") \($0["where"] ?? "")" }, ["clipped clipping recorded"])
    }

    /// A microphone that hears nothing (a muted headset) is said to be silent once it has been for ten
    /// seconds. One that clips as it comes, turned down 12 dB by its gain, is said to clip at its source.
    func testASilentMicrophoneIsSaidToBeAfterTenSecondsAndOneClippingAtItsSourceUnderItsGain() throws {
        // Noise as loud as full scale peaks well past it: the source clips.
        let description = camera + "microphones:\n  - name: muted\n    synthetic: silence\n  - name: hot\n    synthetic: 440\n    noise: 0\n    gain: -12\n"
        let (path, events) = try record(description, seconds: 14, name: "silence")
        XCTAssertEqual(events.map { "\($0["microphone"] ?? "") \($0["what"] ?? "") \($0["where"] ?? "")" }, ["hot clipping source", "muted silent "])
        XCTAssertLessThan(try SoundStats.levels(path: path, audio: 0, from: 1).rms, -10, "recorded 12 dB down")
        let time = try XCTUnwrap(events.last?["time"] as? Double)
        XCTAssertEqual(time, 10, accuracy: 1, "ten seconds in")
    }

    /// On a terminal (tmux's, read with capture-pane) the status line draws the microphone's meter, which
    /// falls when its gain is turned down over the control socket; a stage turned on live is refused in a line.
    func testTheTerminalsMeterMovesWithTheSound() throws {
        let folder = try Paths.scratch("meters")
        try (camera + "microphones:\n  - name: voice\n    synthetic: 440\n").write(toFile: "\(folder)/tone.yaml", atomically: true, encoding: .utf8)
        let session = "pipcam-meters-\(getpid())"
        let command = [Paths.pipcam, "record", "\(folder)/tone.mkv", "--pipeline", "\(folder)/tone.yaml", "--duration", "20", "--control", "\(folder)/control.sock"]
        // tmux's server keeps what this process's children inherit open until it exits: its start is not
        // waited for, and it is reaped once the server is stopped.
        let starter = try Command.start(["tmux", "-L", session, "new-session", "-d", "-x", "200", "-y", "8", command.joined(separator: " ")])
        defer {
            _ = try? Command.run(["tmux", "-L", session, "kill-server"])
            _ = starter.wait()
        }
        func meter() throws -> String? {
            let pane = try Command.run(["tmux", "-L", session, "capture-pane", "-p"]).output
            return pane.split(separator: "\n").last { $0.contains("voice [") }.flatMap { line in
                line.range(of: "voice [").map { String(line[$0.lowerBound...]).components(separatedBy: "  ")[0].trimmingCharacters(in: .whitespaces) }
            }
        }
        let control = try ControlClient(path: "\(folder)/control.sock")
        try control.waitUntilElapsed(1.5)
        var loud: String?
        try waitFor(within: 10, "a meter on the status line") { loud = try? meter(); return loud != nil }
        XCTAssertEqual(loud, "voice [########|.] -8", "the tone peaks at -8 dBFS")
        XCTAssertEqual(try control.send(#"{"command":"sound","id":"voice","gain":-20}"#)["ok"] as? Bool, true)
        var quiet: String?
        try waitFor(within: 10, "the meter falls") { quiet = try? meter(); return quiet?.hasSuffix("-28") == true }
        XCTAssertEqual(quiet, "voice [#####.....] -28")
        let refused = try control.send(#"{"command":"sound","id":"voice","noise-suppression":"high"}"#)
        XCTAssertEqual(refused["ok"] as? Bool, false)
        XCTAssertTrue((refused["error"] as? String ?? "").contains("set in the description"), "\(refused)")
        XCTAssertEqual(try control.send(#"{"command":"stop"}"#)["ok"] as? Bool, true)
    }

    /// An offset changed while recording moves the sound from then on: beeps on the flashes before,
    /// 200 ms ahead of them after.
    func testAnOffsetChangedWhileRecordingMovesTheSoundFromThenOn() throws {
        let folder = try Paths.scratch("live-offset")
        try "cameras:\n  - name: flash\n    synthetic: sync\nmicrophones:\n  - name: beeps\n    synthetic: sync\n"
            .write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let path = "\(folder)/offset.mkv"
        let recording = try Command.start([Paths.pipcam, "record", path, "--pipeline", "\(folder)/sync.yaml", "--duration", "9", "--control", "\(folder)/control.sock"])
        let control = try ControlClient(path: "\(folder)/control.sock")
        try control.waitUntilElapsed(4)
        let answer = try control.send(#"{"command":"sound","id":"beeps","offset":200}"#)
        XCTAssertEqual(answer["ok"] as? Bool, true, "\(answer)")
        let changedAt = try XCTUnwrap(answer["elapsed"] as? Double)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        let sync = try SyncOffsets.read(path: path, video: 0, region: (x: 400, y: 250, width: 160, height: 120), audio: 0)
        // A second either side of the change: the file's time starts a moment after the recording's.
        let before = sync.pairs.filter { $0.beep < changedAt - 1 }, after = sync.pairs.filter { $0.flash > changedAt + 1 }
        XCTAssertGreaterThanOrEqual(before.count, 2, "\(sync.flashes) \(sync.beeps)")
        XCTAssertGreaterThanOrEqual(after.count, 2, "\(sync.flashes) \(sync.beeps)")
        // Within a recording every picture sits the same share of a picture from its frame's time (the
        // picture's frame grid, as `SyncTests` says: half a picture at most; 10.9 ms once, with the machine
        // busy): the change moves the sound by its 200 ms exactly against the pictures before it.
        let allowed = 1.0 / 60 + 0.003
        for pair in before { XCTAssertEqual(pair.offset, 0, accuracy: allowed, String(format: "before: beep %.4f s, flash %.4f s", pair.beep, pair.flash)) }
        for pair in after { XCTAssertEqual(pair.offset, -0.2, accuracy: allowed, String(format: "after: beep %.4f s, flash %.4f s", pair.beep, pair.flash)) }
        let start = before.map(\.offset).reduce(0, +) / Double(max(before.count, 1))
        for pair in after {
            XCTAssertEqual(pair.offset - start, -0.2, accuracy: 0.003, String(format: "moved by 200 ms: %.4f s after, %.4f s before", pair.offset, start))
        }
    }

    /// The sync microphone beeping 120 ms after the flashes: `sync-check` measures it, writes the offset, and
    /// a recording with it has flash and beep within a picture, the same in every pair.
    func testSyncCheckMeasuresALateMicrophoneAndItsOffsetPutsTheBeepOnTheFlash() throws {
        let folder = try Paths.scratch("sync-check")
        let description = "\(folder)/late.yaml"
        try "cameras:\n  - name: flash\n    synthetic: sync\nmicrophones:\n  - name: beeps\n    synthetic: sync\n    delay: 120\n"
            .write(toFile: description, atomically: true, encoding: .utf8)
        let check = try Command.run([Paths.pipcam, "sync-check", "--pipeline", description, "--seconds", "5", "--write"])
        XCTAssertEqual(check.status, 0, check.error)
        let measured = try XCTUnwrap(SyncCheckLine.lateness(of: "beeps", in: check.output), check.output)
        print("sync-check: beeps \(measured) ms late")
        XCTAssertEqual(measured, 120, accuracy: 10)
        XCTAssertTrue(try String(contentsOfFile: description, encoding: .utf8).contains("    offset: \(measured)\n"))
        let path = "\(folder)/offset.mkv"
        let result = try Command.run([Paths.pipcam, "record", path, "--pipeline", description, "--duration", "5.5"])
        XCTAssertEqual(result.status, 0, result.error)
        let sync = try SyncOffsets.read(path: path, video: 0, region: (x: 400, y: 250, width: 160, height: 120), audio: 0)
        XCTAssertGreaterThanOrEqual(sync.pairs.count, 4, "\(sync.flashes) \(sync.beeps)")
        // Each session puts its pictures on its frame grid, up to half a picture from their frames' times and
        // the same share in all of them (see `SyncTests`): the check's figure carries its session's share and
        // the recording its own, a picture apart at most (10.04 ms once, with another program busy, the check
        // having measured 120 ms). Within the recording, every pair is as far apart as the first.
        let first = try XCTUnwrap(sync.pairs.first).offset
        for pair in sync.pairs {
            XCTAssertEqual(pair.offset, 0, accuracy: sync.frameDuration + 0.003, String(format: "beep %.4f s, flash %.4f s", pair.beep, pair.flash))
            XCTAssertEqual(pair.offset, first, accuracy: 0.003, String(format: "beep %.4f s, flash %.4f s, as the first pair", pair.beep, pair.flash))
        }
        // Without flashes there is nothing to measure: one line, and a failure.
        try "cameras:\n  - name: cam\n    synthetic: ball\nmicrophones:\n  - name: beeps\n    synthetic: sync\n".write(toFile: description, atomically: true, encoding: .utf8)
        let none = try Command.run([Paths.pipcam, "sync-check", "--pipeline", description, "--seconds", "3"])
        XCTAssertNotEqual(none.status, 0)
        XCTAssertTrue(none.error.contains("no microphone measured"), none.error)
    }
}
