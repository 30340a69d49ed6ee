import Foundation
import PipcamTestSupport
import XCTest

/// Cameras on the network (`url:`), recorded from real servers on 127.0.0.1 started here: an IP camera's
/// RTSP server (GstRtspServer), ffmpeg sending MJPEG over HTTP and MPEG-TS over SRT. Each camera sends
/// white; the inset is a drawn camera, so the main camera's place tells the camera, its slate (dimmed)
/// and its "waiting" picture (black) apart by brightness alone.
final class NetworkCameraTests: XCTestCase {
    /// The main camera's place in the low preset's 640x360 picture, clear of the inset at the bottom right.
    private static let main = (x: 40, y: 40, width: 360, height: 160)

    /// Each kind of camera's server killed 3 s into a 12 s recording and started again at 6 s: a 12 s
    /// file with every picture, the slate between, the camera back within 3 s of the restart, the other
    /// camera and the microphone never interrupted. An RTSP or SRT camera's sound (its 880 Hz tone) is a
    /// microphone too: heard before the loss and after the return, silent between.
    func testAnRTSPCameraKilledAndStartedAgainShowsTheSlateAndComesBackIntoTheSameFile() throws {
        try recordThroughADropOut(of: .rtsp(pattern: "white", credentials: nil), name: "rtsp", takesSound: true)
    }

    func testAnMJPEGCameraKilledAndStartedAgainComesBackIntoTheSameFile() throws {
        try recordThroughADropOut(of: .mjpeg(), name: "mjpeg")
    }

    /// pipcam calls the camera's SRT listener, which sends H.264 in 4:4:4 at 10 bits (converted) and AAC:
    /// the sound comes over the same connection (an SRT listener takes one caller).
    func testAnSRTCameraKilledAndStartedAgainComesBackIntoTheSameFile() throws {
        try recordThroughADropOut(of: .srt, name: "srt", takesSound: true)
    }

    /// The sync camera served over RTSP with pipcam's own sync microphone: the camera's flashes are within
    /// one picture of their beeps in the file, though its pictures crossed an encoder, the network and the
    /// jitter buffer's 200 ms (`latency:`). The camera sends each picture 87 ms after its time (its
    /// pipeline's latency: one picture from its live source, 20 ms in x264enc), as a camera's maker
    /// states its delay; given as `delay:`, pipcam places the pictures back. Without it they were 90 to
    /// 104 ms after the sound. The camera beeps with its flashes, and its sound, recorded as a second
    /// microphone, is placed back by the same delay: within a picture of pipcam's own beeps (without
    /// it, 91 ms after them). The camera sends its sender reports from the start, as RFC 6051 asks: a
    /// receiver has the two in step only from the first (`rtsp-camera.py`).
    func testAnRTSPSyncCamerasFlashesAreWithinAPictureOfTheLocalMicrophonesBeeps() throws {
        let folder = try Paths.scratch("network-sync")
        let camera = try NetworkCameraServer(.rtsp(pattern: "sync", credentials: nil))
        defer { camera.kill() }
        let description = "\(folder)/session.yaml", file = "\(folder)/out.mkv"
        try """
        preset: low
        frame-rate: 15
        cameras:
          - name: hall
            url: \(camera.url)
            delay: 87ms
        microphones:
          - name: beep
            synthetic: sync
          - name: hall-sound
            camera: hall
        """.write(toFile: description, atomically: true, encoding: .utf8)
        let result = try Command.run(["timeout", "60", Paths.pipcam, "record", file, "--pipeline", description, "--duration", "10"])
        XCTAssertEqual(result.status, 0, result.error)
        // The file's sound: the mix, pipcam's beeps, the camera's.
        let sync = try SyncOffsets.read(path: file, region: (x: 240, y: 120, width: 160, height: 120), audio: 1)
        // The camera's first picture comes after the protocol's setup and a key frame: a second or two.
        XCTAssertGreaterThanOrEqual(sync.pairs.count, 5, "a flash and a beep each second: \(sync.flashes) \(sync.beeps)")
        XCTAssertEqual(sync.pairs.count, sync.flashes.count, "every flash has its beep: \(sync.flashes) \(sync.beeps)")
        // Where the pictures are placed: the middle offset, within one picture. A flash is read from the
        // brightness of its first lit picture, which tells where within the camera's picture the flash
        // began; the camera's pictures fall on the recording's at another phase, and one at the edge of
        // a slot may take its neighbour's (then that flash reads up to a picture and a half off: -65.7,
        // -50.4 and -42.1 ms, once each in 14 runs of 10 flashes, whose middle offsets were +22 to +33 ms).
        let offsets = sync.pairs.map(\.offset).sorted()
        guard !offsets.isEmpty else { return }
        XCTAssertEqual(offsets[offsets.count / 2], 0, accuracy: 1.0 / 15, "the camera's pictures in step with the sound: \(offsets)")
        for pair in sync.pairs {
            XCTAssertEqual(pair.offset, 0, accuracy: 1.5 / 15, String(format: "beep %.4f s, flash %.4f s", pair.beep, pair.flash))
        }
        print(String(format: "network sync: %d pairs, offsets %@ ms", sync.pairs.count,
                     sync.pairs.map { String(format: "%+.1f", $0.offset * 1000) }.joined(separator: " ")))

        let cameraBeeps = try SyncOffsets.beepTimes(path: file, audio: 2)
        let apart = cameraBeeps.compactMap { beep in sync.beeps.min { abs($0 - beep) < abs($1 - beep) }.map { beep - $0 } }.sorted()
        XCTAssertGreaterThanOrEqual(apart.count, 5, "the camera's beeps: \(cameraBeeps)")
        guard !apart.isEmpty else { return }
        XCTAssertEqual(apart[apart.count / 2], 0, accuracy: 1.0 / 15, "the camera's sound in step with pipcam's: \(apart)")
        print("network sync: the camera's beeps after pipcam's by", apart.map { String(format: "%+.1f", $0 * 1000) }.joined(separator: " "), "ms")
    }

    private func recordThroughADropOut(of kind: NetworkCameraServer.Kind, name: String, takesSound: Bool = false) throws {
        let folder = try Paths.scratch("network-\(name)")
        let camera = try NetworkCameraServer(kind)
        defer { camera.kill() }
        let events = "\(folder)/events.jsonl"
        let yaml = try description(in: folder, url: camera.url, microphones: takesSound ? "  - name: hall-sound\n    camera: hall\n" : "")
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", yaml, "--duration", "12", "--events", events])
        try waitFor(within: 20, "3 s of recording", from: recording) { Self.recordingTime(events) >= 3 }
        let killed = Self.recordingTime(events)
        camera.kill()
        try waitFor(within: 20, "6 s of recording", from: recording) { Self.recordingTime(events) >= 6 }
        let restarted = Self.recordingTime(events)
        try camera.start()
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)

        // The stretch away is a loss, not drops: no picture counted dropped, and no pressure from it.
        let hallLine = try XCTUnwrap(result.output.split(separator: "\n").first { $0.hasPrefix("  hall: ") }, result.output)
        XCTAssertTrue(hallLine.hasSuffix(", 0 dropped"), String(hallLine))
        let frames = try XCTUnwrap(Int(hallLine.split(separator: " ")[1]), String(hallLine))
        XCTAssertLessThan(frames, 180 - 2 * 15, "the pictures it sent, not its slate's: \(hallLine)")
        let dropped = try Self.events(events).filter { $0["event"] as? String == "pressure" }.compactMap { $0["dropped"] as? Int }
        XCTAssertEqual(dropped.max() ?? 0, 0, "pressure samples counted no drop")
        let interruptions = try Self.events(events).filter { ($0["event"] as? String)?.hasPrefix("interrupt") == true }
        XCTAssertEqual(interruptions.compactMap { $0["input"] as? String }, ["hall", "hall"], "one loss and one return, both the network camera's: \(interruptions)")
        let lost = try XCTUnwrap(interruptions.first?["time"] as? Double), back = try XCTUnwrap(interruptions.last?["time"] as? Double)
        XCTAssertGreaterThan(lost, 3)
        XCTAssertLessThan(back - restarted, 3, "back within 3 s of the server's restart at \(restarted) s: \(result.error)")

        let file = "\(folder)/out.mkv"
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 180, accuracy: 1, "12 s at 15 a second")
        let times = try MediaProbe.videoFrameTimes(path: file)
        XCTAssertLessThan(zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 1, 1.5 / 15, "no gap in the file's pictures")
        XCTAssertEqual(try XCTUnwrap(try MediaProbe(path: file).audioStreams.first?.codecName), "opus", "the microphone is recorded")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        let place = try RegionLuma.series(path: file, x: Self.main.x, y: Self.main.y, width: Self.main.width, height: Self.main.height)
        let live = place.map(\.luma).sorted()[place.count * 3 / 4]
        // Each stretch is asserted only when it is one (an MJPEG camera is known lost only 2 s after its
        // server went quiet, and may be back soon after).
        func shows(_ from: Double, _ to: Double) -> [Double] { place.filter { $0.time >= from && $0.time <= to }.map(\.luma) }
        XCTAssertGreaterThan(live, 200, "the camera's white")
        // Its place is black ("waiting for the camera") until its first picture: the protocol's setup, then a key frame.
        let first = try XCTUnwrap(place.first { $0.luma > live - 10 }).time
        XCTAssertLessThan(first, 3, "the camera shows within its first seconds")
        XCTAssertTrue(shows(first, lost - 0.5).allSatisfy { $0 > live - 10 }, "the camera from its first picture to its loss")
        XCTAssertTrue(shows(lost + 0.5, back - 0.5).allSatisfy { $0 < live - 25 && $0 > 60 }, "its slate (the last picture, dimmed) while it is away")
        XCTAssertTrue(shows(back + 0.5, 11.5).allSatisfy { $0 > live - 10 }, "and the camera again once back")
        XCTAssertFalse(shows(first, lost - 0.5).isEmpty || shows(back + 0.5, 11.5).isEmpty, "the camera shows before its loss and after its return")

        // The microphone's 440 Hz through the loss; the camera's 880 Hz with the camera, silence without.
        // Away from the loss, or from the server's end when the loss is known later (an SRT stream is called
        // lost 2.5 s after it stops, which can be a moment before its return).
        let away = min(lost + 0.5, killed + 1.5)
        let microphone = try ToneProbe.heard(path: file, stream: takesSound ? 1 : 0, frequency: 440)
        XCTAssertTrue(microphone.contains { $0 > away && $0 < back - 0.5 }, "the microphone is heard while the camera is away (\(away) to \(back) s)")
        guard takesSound else { return }
        XCTAssertEqual(try MediaProbe(path: file).audioStreams.count, 3, "the mix, the microphone and the camera's sound")
        let sound = try ToneProbe.heard(path: file, stream: 2, frequency: 880)
        XCTAssertTrue(sound.contains { $0 < lost - 0.5 }, "the camera's sound before its loss: \(sound.first ?? -1)")
        XCTAssertTrue(sound.contains { $0 > back + 0.5 }, "the camera's sound after its return: \(sound.last ?? -1)")
        // Silent while away (the time read before the kill is up to a second old).
        let silent = away
        XCTAssertFalse(sound.contains { $0 > silent && $0 < back - 0.5 }, "silence while the camera is away (\(silent) to \(back) s): \(sound)")
        let levels = try ToneProbe.pieces(path: file, stream: 2, length: 0.1).filter { $0.time > silent && $0.time < back - 0.6 }
        XCTAssertTrue(levels.allSatisfy { $0.level < 10 }, "digital silence while away: \(levels.map(\.level))")
        print(String(format: "camera sound: heard %.2f s of 12, silent from %.1f s (lost %.1f s), back %.1f s", Double(sound.count) * 0.02, silent, lost, back))
    }

    /// A webcam server that misbehaves in each way a hostile one does, its camera optional (one the
    /// recording needs would stop its start): each recording ends by `--duration` with every picture and
    /// a file every reader takes, and the camera counts as lost (a stream with no picture in it is called
    /// again after 5 s). A 4K stream where a 640x360 place was asked is scaled into it. A silent server
    /// fails its source after 5 s, and pipcam's own look at it (a second) says why: 7 s to see the loss.
    func testHostileServersCostTheRecordingNothing() throws {
        let folder = try Paths.scratch("network-hostile")
        for (fault, seconds) in [("garbage", 3), ("stall", 4), ("truncated", 3), ("html", 3), ("silent", 7), ("4K", 3)] {
            let camera = try NetworkCameraServer(fault == "4K" ? .mjpeg(width: 3840, height: 2160) : .mjpeg(fault: fault))
            defer { camera.kill() }
            let file = "\(folder)/\(fault).mkv"
            let started = ContinuousClock.now
            let result = try Command.run(["timeout", "30", Paths.pipcam, "record", file, "--pipeline",
                                          try description(in: folder, url: camera.url, extra: "    optional: true\n"), "--duration", String(seconds)])
            XCTAssertEqual(result.status, 0, "\(fault): \(result.error)")
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(seconds + 10), "\(fault): the stop does not wait on the server")
            XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), Double(seconds * 15), accuracy: 1, "\(fault): every picture")
            XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "", fault)
            let place = try RegionLuma.series(path: file, x: Self.main.x, y: Self.main.y, width: Self.main.width, height: Self.main.height)
            if fault == "4K" {
                XCTAssertGreaterThan(place.filter { $0.time > 2 }.map(\.luma).min() ?? 0, 200, "the 4K camera's white, scaled: \(result.error)")
            } else if fault != "truncated" {
                // A cut-off JPEG may decode (its lower part grey) or fail: either way the recording goes on.
                XCTAssertTrue(result.error.contains("hall lost at"), "\(fault): \(result.error)")
            }
            print("hostile \(fault): \(result.error.split(separator: "\n").first { $0.contains("lost at") } ?? "not lost")")
        }
    }

    /// A camera that asks for a password: given from the environment, it is recorded and never shown; a
    /// wrong one stops the recording's start in one line saying so.
    func testAPasswordFromTheEnvironmentIsUsedAndNeverShown() throws {
        let folder = try Paths.scratch("network-password")
        let password = "s3cret-\(UUID().uuidString.prefix(8))"
        let camera = try NetworkCameraServer(.rtsp(pattern: "white", credentials: "viewer:\(password)"))
        defer { camera.kill() }
        let url = camera.url.replacingOccurrences(of: "rtsp://", with: "rtsp://viewer@")
        let yaml = try description(in: folder, url: url, extra: "    password-env: HALL_PASSWORD\n")
        for (given, works) in [(password, true), ("wrong-password", false)] {
            let events = "\(folder)/events-\(works).jsonl"
            let result = try Command.run([Paths.pipcam, "record", "\(folder)/out-\(works).mkv", "--pipeline", yaml, "--duration", "3", "--events", events],
                                         environment: ["HALL_PASSWORD": given])
            XCTAssertEqual(result.status, works ? 0 : 1, result.error)
            let described = try Command.run([Paths.pipcam, "describe", "--pipeline", yaml], environment: ["HALL_PASSWORD": given])
            XCTAssertTrue(described.output.contains("uridecodebin name=cam0-src-decode uri='\"rtsp://viewer:****@127.0.0.1:\(camera.port)/cam\"' ! videoconvert ! videorate"),
                          "the launch line opens the camera: \(described.output)")
            let everything = [result.output, result.error, described.output, described.error, (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""]
            XCTAssertFalse(everything.contains { $0.contains(given) }, "the password never shows: \(everything)")
            if works {
                XCTAssertFalse(result.error.contains("lost"), result.error)
            } else {
                XCTAssertEqual(result.error.split(separator: "\n").count, 1, result.error)
                XCTAssertTrue(result.error.contains("camera 'hall' at rtsp://viewer:****@") && result.error.contains("refused the user and password"), result.error)
            }
        }
    }

    /// `pipcam probe` says what a camera sends, one line each, or in one line why it sends nothing; a
    /// camera the recording needs that sends nothing stops its start in one line, an optional one waits
    /// in its place.
    func testProbeSaysWhatACameraSendsAndARecordingNeedsItsCameraToAnswer() throws {
        let folder = try Paths.scratch("network-probe")
        let camera = try NetworkCameraServer(.rtsp(pattern: "white", credentials: nil))
        defer { camera.kill() }
        let probed = try Command.run([Paths.pipcam, "probe", camera.url])
        XCTAssertEqual(probed.status, 0, probed.error)
        XCTAssertEqual(probed.output, "\(camera.url)\n  picture: H.264 640x360 at 15 fps\n  sound: Opus\n")

        let silent = try NetworkCameraServer(.mjpeg(fault: "silent"))
        defer { silent.kill() }
        let nothing = "rtsp://127.0.0.1:\(freeLocalPort())/cam"
        for (url, expected) in [(nothing, "nobody listens at 127.0.0.1:\(URL(string: nothing)!.port!) (connection refused)"),
                                (silent.url, "took the connection but never answered"),
                                ("ftp://127.0.0.1/x", "'ftp' is not a camera pipcam takes")] {
            let result = try Command.run(["timeout", "20", Paths.pipcam, "probe", url, "--timeout", "2"])
            XCTAssertEqual(result.status, 1, url)
            XCTAssertEqual(result.error.split(separator: "\n").count, 1, result.error)
            XCTAssertTrue(result.error.contains(expected), "\(url): \(result.error)")
        }

        let refused = try Command.run(["timeout", "20", Paths.pipcam, "record", "\(folder)/refused.mkv", "--pipeline", try description(in: folder, url: nothing),
                                       "--duration", "2"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.error.split(separator: "\n").filter { !$0.hasPrefix("note: ") }.count, 1, refused.error)
        XCTAssertTrue(refused.error.contains("camera 'hall' at \(nothing): nobody listens at 127.0.0.1:"), refused.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/refused.mkv"), "nothing recorded")
        let waiting = try Command.run(["timeout", "20", Paths.pipcam, "record", "\(folder)/waiting.mkv", "--pipeline",
                                       try description(in: folder, url: nothing, extra: "    optional: true\n"), "--duration", "2"])
        XCTAssertEqual(waiting.status, 0, waiting.error)
        // Its placeholder and slate filled its place: not pictures it sent.
        XCTAssertTrue(waiting.output.contains("  hall: no frames captured (no picture from the camera reached the recording)\n"), waiting.output)
        // Lost in its first second (00:00.0 or 00:00.1: when the refusal comes back), for the reason it was.
        XCTAssertNotNil(waiting.error.range(of: #"hall lost at 00:00\.[0-9]: nobody listens at 127\.0\.0\.1:[0-9]+ \(connection refused\)"#, options: .regularExpression), waiting.error)
    }

    /// A camera's `delay` places its pictures in the recording; it does not hold the start back: the
    /// check that a camera the recording needs sends pictures asks for them as the camera sends them.
    func testACamerasDelayDoesNotHoldTheStart() throws {
        let folder = try Paths.scratch("network-delay-start")
        let camera = try NetworkCameraServer(.rtsp(pattern: "white", credentials: nil))
        defer { camera.kill() }
        var took: [Duration] = []
        for (index, extra) in ["", "    delay: 5000ms\n"].enumerated() {
            let events = "\(folder)/events-\(index).jsonl"
            let started = ContinuousClock.now
            let recording = try Command.start(["timeout", "30", Paths.pipcam, "record", "\(folder)/out.mkv", "--force", "--events", events,
                                               "--pipeline", try description(in: folder, url: camera.url, extra: extra), "--duration", "2"])
            // Recording: its first pressure sample, a second in.
            try waitFor(within: 20, "the recording's first second") { Self.recordingTime(events) > 0 }
            took.append(ContinuousClock.now - started)
            let result = recording.wait()
            XCTAssertEqual(result.status, 0, result.error)
        }
        // Before, the check dropped the pictures of the delay's first 5 s and the start waited for them.
        // (The stop may wait for the camera: the other inputs' last 5 s reach the picture then.)
        XCTAssertLessThan(took[1] - took[0], .seconds(2), "without the delay \(took[0]), with it \(took[1])")
        print("delay and start: a second recorded \(took[0]) after the command without the delay, \(took[1]) with it")
    }

    /// A camera's `delay` places its pictures that much earlier, and the picture waits for them: a camera
    /// 5 s behind shows from the recording's first second (the pictures it sent 5 s after the start),
    /// not 5 s after it connects, or never. The pictures it sends in the last 5 s, of what it saw after the
    /// stop, are not in the file: there its place is black.
    func testACameraFiveSecondsBehindShowsFromTheStart() throws {
        let folder = try Paths.scratch("network-delay-place")
        let camera = try NetworkCameraServer(.rtsp(pattern: "white", credentials: nil))
        defer { camera.kill() }
        let file = "\(folder)/out.mkv"
        let result = try Command.run(["timeout", "60", Paths.pipcam, "record", file, "--pipeline",
                                      try description(in: folder, url: camera.url, extra: "    delay: 5000ms\n"), "--duration", "10"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        let place = try RegionLuma.series(path: file, x: Self.main.x, y: Self.main.y, width: Self.main.width, height: Self.main.height)
        let first = try XCTUnwrap(place.first { $0.luma > 200 }, "the camera shows: \(result.error)").time
        XCTAssertLessThan(first, 0.5, "from the start: what it saw then came 5 s later")
        let shown = place.filter { $0.time >= first && $0.time <= 4.5 }
        XCTAssertTrue(shown.allSatisfy { $0.luma > 200 }, "and on, without a gap, to the pictures that came before the stop: \(shown.map(\.luma))")
        let dropped = result.output.split(separator: "\n").first { $0.hasSuffix("pictures dropped: the machine could not keep up") }
        XCTAssertNil(dropped, "the other camera's frames waited with it, and all were encoded at the end: \(result.output)")
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 150, accuracy: 1, "10 s at 15 a second")
        let desk = try XCTUnwrap(result.output.split(separator: "\n").first { $0.hasPrefix("  desk: ") }, result.output)
        XCTAssertTrue(desk.hasSuffix(", 0 dropped"), String(desk))
    }

    /// A camera that is not there, in each way one can be not there: `probe`, and a recording that needs
    /// the camera, each give a different line, within the time asked for: a closed port, an unknown host,
    /// a server that takes the connection and says nothing, a host that never answers (a namespace whose
    /// route leads nowhere), a server of another kind, a camera that wants a login none was given for.
    func testEachWayACameraIsNotThereReadsDifferently() throws {
        let folder = try Paths.scratch("network-not-there")
        let hole = try BlackHole()
        defer { hole.remove() }
        let silent = try NetworkCameraServer(.mjpeg(fault: "silent"))
        defer { silent.kill() }
        let web = try NetworkCameraServer(.mjpeg())
        defer { web.kill() }
        let locked = try NetworkCameraServer(.rtsp(pattern: "white", credentials: "viewer:secret-word"))
        defer { locked.kill() }
        let closed = freeLocalPort()
        let cases: [(url: String, launcher: [String], expected: String)] = [
            ("rtsp://127.0.0.1:\(closed)/cam", [], "nobody listens at 127.0.0.1:\(closed) (connection refused)"),
            ("http://camera.invalid/video", [], "host 'camera.invalid' does not resolve"),
            (silent.url, [], "the server at 127.0.0.1:\(silent.port) took the connection but never answered"),
            ("rtsp://\(hole.address)/cam", hole.launcher, "nobody answers at \(hole.address):554"),
            ("rtsp://127.0.0.1:\(web.port)/cam", [], "the server at 127.0.0.1:\(web.port) is not an RTSP server"),
            (locked.url, [], "it needs a user and password (unauthorized)"),
        ]
        for (url, launcher, expected) in cases {
            let started = ContinuousClock.now
            let probed = try Command.run(launcher + ["timeout", "20", Paths.pipcam, "probe", url, "--timeout", "4"])
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(6), "\(url): within the probe's 4 s")
            XCTAssertEqual(probed.status, 1, url)
            XCTAssertEqual(probed.error.split(separator: "\n").count, 1, probed.error)
            XCTAssertTrue(probed.error.hasPrefix("Error: \(url): \(expected)"), probed.error)

            let recorded = try Command.run(launcher + ["timeout", "30", Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline",
                                                       try description(in: folder, url: url), "--duration", "2"])
            XCTAssertEqual(recorded.status, 1, url)
            let lines = recorded.error.split(separator: "\n").filter { !$0.hasPrefix("note: ") }
            XCTAssertEqual(lines.count, 1, recorded.error)
            XCTAssertTrue(recorded.error.contains("camera 'hall' at \(url): \(expected)"), recorded.error)
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out.mkv"), "nothing recorded: \(url)")
        }
    }

    /// A description of the network camera at `url` as the main camera, a drawn inset and a tone, with
    /// `microphones` after it.
    private func description(in folder: String, url: String, extra: String = "", microphones: String = "") throws -> String {
        let path = "\(folder)/session.yaml"
        try """
        preset: low
        cameras:
          - name: hall
            url: \(url)
        \(extra)  - name: desk
            synthetic: ball
        microphones:
          - name: mic
            synthetic: 440
        \(microphones)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func events(_ file: String) throws -> [[String: Any]] {
        try StrictJSON.parseLines((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").compactMap { $0 as? [String: Any] }
    }

    /// The recording's time, from its latest pressure sample (one a second).
    private static func recordingTime(_ file: String) -> Double {
        ((try? events(file)) ?? []).filter { $0["event"] as? String == "pressure" }.compactMap { $0["time"] as? Double }.last ?? 0
    }
}
