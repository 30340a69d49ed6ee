import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam record --stream` against real servers on 127.0.0.1, started here: nginx with its RTMP module,
/// and ffmpeg calling or listening over SRT. What they received is read with ffprobe and ffmpeg; so is
/// the local file, which no stream may touch.
final class StreamCommandTests: XCTestCase {
    private let demo = "\(Paths.repository)/pipelines/demo.yaml"

    func testTheDemoStreamedToNginxArrivesWholeAndTheFileIsAsWithoutIt() throws {
        let folder = try Paths.scratch("stream-rtmp")
        let server = try RTMPServer(folder: "\(folder)/nginx")
        defer { server.stop() }
        let streamed = try Command.run([Paths.pipcam, "record", "\(folder)/streamed.mkv", "--pipeline", demo, "--duration", "6",
                                        "--stream", server.url(key: "test")])
        XCTAssertEqual(streamed.status, 0, streamed.error)
        XCTAssertTrue(streamed.error.contains("stream 'rtmp' connected"), streamed.error)
        XCTAssertTrue(streamed.output.contains("stream 'rtmp' to rtmp://127.0.0.1:\(server.port)/live/****: live"), streamed.output)
        server.stop()

        let received = try MediaProbe(path: server.recordedFile(key: "test"))
        XCTAssertEqual(received.videoStreams.map(\.codecName), ["h264"])
        XCTAssertEqual(received.audioStreams.map(\.codecName), ["aac"])
        XCTAssertEqual(try XCTUnwrap(received.duration), 6, accuracy: 0.5)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: server.recordedFile(key: "test")), "")

        let alone = try Command.run([Paths.pipcam, "record", "\(folder)/alone.mkv", "--pipeline", demo, "--duration", "6"])
        XCTAssertEqual(alone.status, 0, alone.error)
        let (withStream, withoutStream) = (try MediaProbe(path: "\(folder)/streamed.mkv"), try MediaProbe(path: "\(folder)/alone.mkv"))
        XCTAssertEqual(withStream.videoStreams.map(\.codecName), withoutStream.videoStreams.map(\.codecName))
        XCTAssertEqual(withStream.audioStreams.map(\.codecName), withoutStream.audioStreams.map(\.codecName), "the file keeps its Opus tracks")
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: "\(folder)/streamed.mkv")), 180, accuracy: 1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/streamed.mkv"), "")
    }

    /// `pipcam stream` sends the demo with no recording: nginx gets 10 s of picture and sound, and the
    /// file the description names is not written.
    func testStreamingAloneReachesNginxAndWritesNoFile() throws {
        let folder = try Paths.scratch("stream-alone")
        let server = try RTMPServer(folder: "\(folder)/nginx")
        defer { server.stop() }
        let description = "\(folder)/demo.yaml"
        try FileManager.default.copyItem(atPath: demo, toPath: description)
        let streamed = try Command.run([Paths.pipcam, "stream", server.url(key: "alone"), "--pipeline", description, "--duration", "10"],
                                       directory: folder)
        XCTAssertEqual(streamed.status, 0, streamed.error)
        XCTAssertTrue(streamed.error.contains("streaming 'rtmp' to rtmp://127.0.0.1:\(server.port)/live/****"), streamed.error)
        XCTAssertTrue(streamed.output.hasPrefix("streamed 10.0"), streamed.output)
        XCTAssertTrue(streamed.output.contains("stream 'rtmp' to rtmp://127.0.0.1:\(server.port)/live/****: live"), streamed.output)
        server.stop()
        try checkReceived(server.recordedFile(key: "alone"), seconds: 10)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mkv") }
        XCTAssertEqual(written, [], "no recording")
    }

    /// A description with streams and no file, streamed: an HLS folder that plays, and no recording.
    func testADescriptionWithStreamsAndNoFileIsStreamed() throws {
        let folder = try Paths.scratch("stream-description")
        let web = "\(folder)/web"
        try FileManager.default.createDirectory(atPath: web, withIntermediateDirectories: true)
        let description = "\(folder)/streams.yaml"
        try """
        cameras:
          - name: front
            synthetic: smpte
        microphones:
          - name: voice
            synthetic: 440
        output:
          streams:
            - name: web
              hls: \(web)
        """.write(toFile: description, atomically: true, encoding: .utf8)
        let streamed = try Command.run([Paths.pipcam, "stream", "--pipeline", description, "--duration", "6"], directory: folder)
        XCTAssertEqual(streamed.status, 0, streamed.error)
        XCTAssertTrue(streamed.output.hasPrefix("streamed 6.0"), streamed.output)
        try checkReceived("\(web)/index.m3u8", seconds: nil)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mkv") }
        XCTAssertEqual(written, [], "no recording")
        let nowhere = try Command.run([Paths.pipcam, "stream", "--pipeline", demo, "--duration", "6"], directory: folder)
        XCTAssertNotEqual(nowhere.status, 0)
        XCTAssertTrue(nowhere.error.contains("give where to send it"), nowhere.error)
    }

    func testSRTReachesAListenerAndAViewerPullsIt() throws {
        let folder = try Paths.scratch("stream-srt")
        let receiver = try SRTReceiver(folder: folder)
        let sent = try Command.run([Paths.pipcam, "record", "\(folder)/sent.mkv", "--pipeline", demo, "--duration", "6", "--stream", receiver.url])
        XCTAssertEqual(sent.status, 0, sent.error)
        _ = receiver.stop()
        try checkReceived(receiver.file, seconds: 6)

        let port = freeLocalPort(udp: true)
        let listening = try Command.start([Paths.pipcam, "record", "\(folder)/listened.mkv", "--pipeline", demo, "--duration", "10",
                                           "--stream", "room=srt://:\(port)"])
        let puller = try SRTPuller(folder: folder, port: port)
        let listened = listening.wait()
        XCTAssertEqual(listened.status, 0, listened.error)
        XCTAssertTrue(listened.output.contains("stream 'room' to srt://:\(port): live"), listened.output)
        _ = puller.stop()
        // The viewer joined while the recording ran: it has what came after, from a key frame.
        try checkReceived(puller.file, seconds: nil)
    }

    /// Through a link that loses 5 % of the datagrams each way and delays each by 100 ms, SRT with a
    /// second of latency keeps up at the demo's 4 Mbit/s: the viewer's copy decodes with under 1 % of its
    /// pictures in error, and the file has every picture.
    func testSRTKeepsUpThroughALossySlowLink() throws {
        let folder = try Paths.scratch("stream-lossy")
        let receiver = try SRTReceiver(folder: folder, latency: 1000)
        let link = try LossyLink(to: receiver.port, loss: 0.05, delayMilliseconds: 100)
        defer { link.stop() }
        let sent = try Command.run([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "10",
                                    "--stream", "srt://127.0.0.1:\(link.port)?latency=1000"])
        XCTAssertEqual(sent.status, 0, sent.error)
        _ = receiver.stop()
        let pictures = try MediaProbe.videoFrameCount(path: receiver.file)
        XCTAssertGreaterThan(pictures, 270, "at least 9 s of the 10 s reached the viewer: \(sent.output)")
        let errors = try MediaProbe.decodeErrors(path: receiver.file).split(separator: "\n").filter { $0.contains("error while decoding") }
        XCTAssertLessThan(Double(errors.count), Double(pictures) * 0.01, errors.joined(separator: "\n"))
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: "\(folder)/kept.mkv")), 300, accuracy: 1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/kept.mkv"), "")
    }

    /// An HLS folder for a static web server: a playlist of segments that play, with picture and sound;
    /// at a size and bitrate of its own (a second encode), beside the file's 1280x720.
    func testAnHLSFolderOfItsOwnSizeHoldsAPlaylistThatPlays() throws {
        let folder = try Paths.scratch("stream-hls")
        let web = "\(folder)/web"
        try FileManager.default.createDirectory(atPath: web, withIntermediateDirectories: true)
        let description = "\(folder)/hls.yaml"
        try (String(contentsOfFile: demo, encoding: .utf8) + """

              streams:
                - name: web
                  hls: \(web)
                  size: 640x360
                  bitrate: 800
            """).write(toFile: description, atomically: true, encoding: .utf8)
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", description, "--duration", "7"])
        XCTAssertEqual(result.status, 0, result.error)
        let playlist = try String(contentsOfFile: "\(web)/index.m3u8", encoding: .utf8)
        XCTAssertTrue(playlist.hasPrefix("#EXTM3U") && playlist.contains("segment00000.ts"), playlist)
        let probe = try MediaProbe(path: "\(web)/index.m3u8")
        XCTAssertEqual(probe.videoStreams.map { "\($0.codecName) \($0.width ?? 0)x\($0.height ?? 0)" }, ["h264 640x360"])
        XCTAssertEqual(probe.audioStreams.map(\.codecName), ["aac"])
        XCTAssertEqual(try XCTUnwrap(probe.duration), 7, accuracy: 1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(web)/index.m3u8"), "")
        XCTAssertEqual(try XCTUnwrap(try MediaProbe(path: "\(folder)/kept.mkv").videoStreams.first).width, 1280)
    }

    /// nginx killed 3 s into a 15 s recording and started again 4 s later: the file has every picture,
    /// evenly spaced; the stream says it was lost and is back within 5 s of the server.
    func testAServerThatGoesAwayAndComesBackCostsTheFileNothing() throws {
        let folder = try Paths.scratch("stream-restart")
        let server = try RTMPServer(folder: "\(folder)/nginx")
        defer { server.stop() }
        let events = "\(folder)/events.jsonl"
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "15",
                                           "--stream", server.url(key: "room"), "--events", events])
        try waitFor(within: 20, "the stream's first connection") { Self.streamEvents(events, "connected") >= 1 }
        Thread.sleep(forTimeInterval: 3)
        server.stop()
        Thread.sleep(forTimeInterval: 4)
        try server.restart()
        try waitFor(within: 5, "the stream back within 5 s of the server") { Self.streamEvents(events, "connected") >= 2 }
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertGreaterThanOrEqual(Self.streamEvents(events, "lost"), 1, result.error)
        XCTAssertTrue(result.error.contains("stream 'rtmp' lost ("), result.error)

        let file = "\(folder)/kept.mkv"
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 450, accuracy: 1, "15 s at 30 fps")
        let times = try MediaProbe.videoFrameTimes(path: file)
        let widest = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        XCTAssertLessThan(widest, 1.5 / 30, "no gap in the file's pictures")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        server.stop()
        XCTAssertEqual(server.recordedFiles(key: "room").count, 2, "nginx received the stream before and after its restart")
    }

    /// A server that stalls without closing (frozen for 15 s: shorter stalls vanish into the sockets'
    /// buffers): the stream falls behind and leaves out whole groups of pictures (and once the sink
    /// gives up on its socket, connects again); the file has every picture.
    func testAStalledServerCostsTheStreamPicturesAndTheFileNone() throws {
        let folder = try Paths.scratch("stream-stall")
        let server = try RTMPServer(folder: "\(folder)/nginx")
        defer { server.stop() }
        let events = "\(folder)/events.jsonl"
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "26",
                                           "--stream", server.url(key: "stall"), "--events", events])
        try waitFor(within: 20, "the stream's first connection") { Self.streamEvents(events, "connected") >= 1 }
        Thread.sleep(forTimeInterval: 2)
        server.freeze(true)
        Thread.sleep(forTimeInterval: 15)
        server.freeze(false)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertGreaterThanOrEqual(Self.streamEvents(events, "dropped"), 1, result.error)
        XCTAssertTrue(result.output.contains("pictures left out"), result.output)
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: "\(folder)/kept.mkv")), 780, accuracy: 1, "26 s at 30 fps")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/kept.mkv"), "")
    }

    /// The control socket stops a stream and starts it again while the file goes on, picture for picture.
    func testTheControlSocketStopsAndStartsAStreamWhileTheFileGoesOn() throws {
        let folder = try Paths.scratch("stream-control")
        let server = try RTMPServer(folder: "\(folder)/nginx")
        defer { server.stop() }
        let (events, socket) = ("\(folder)/events.jsonl", "\(folder)/control")
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "12",
                                           "--stream", "live=" + server.url(key: "room"), "--events", events, "--control", socket])
        let control = try ControlClient(path: socket)
        try waitFor(within: 20, "the stream's first connection") { Self.streamEvents(events, "connected") >= 1 }
        let off = try control.send(#"{"command":"stream","id":"live","enabled":false}"#)
        XCTAssertEqual(off["ok"] as? Bool, true, "\(off)")
        XCTAssertEqual(off["streaming"] as? Bool, false, "\(off)")
        XCTAssertEqual(try control.send(#"{"command":"stream","id":"nope"}"#)["ok"] as? Bool, false)
        try control.waitUntilElapsed(6)
        XCTAssertEqual(try control.send(#"{"command":"stream","id":"live"}"#)["streaming"] as? Bool, true, "toggled back on")
        try waitFor(within: 5, "the stream back") { Self.streamEvents(events, "connected") >= 2 }
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: "\(folder)/kept.mkv")), 360, accuracy: 1)
        XCTAssertEqual(server.log.components(separatedBy: "publish: name='room'").count - 1, 2, "published twice")
    }

    /// Stream keys and passphrases appear nowhere a person or a log could read them, however the
    /// stream fails: refused by a server, and a port nothing listens on.
    func testSecretsNeverAppearInOutputEventsOrDescribe() throws {
        let folder = try Paths.scratch("stream-secrets")
        let key = "k3y-\(UUID().uuidString.prefix(8))", passphrase = "pass-\(UUID().uuidString.prefix(12))"
        let closed = freeLocalPort()
        let events = "\(folder)/events.jsonl"
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", demo, "--duration", "5", "--events", events,
                                      "--stream", "rtmp://127.0.0.1:\(closed)/live/\(key)",
                                      "--stream", "srt://127.0.0.1:\(freeLocalPort(udp: true))?streamid=\(key)&passphrase=\(passphrase)"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.error.contains("stream 'rtmp' cannot connect: nobody listens at 127.0.0.1:\(closed) (connection refused)"), result.error)
        let description = "\(folder)/streams.yaml"
        try """
        cameras:
          - name: front
            synthetic: smpte
        output:
          file: out.mkv
          streams:
            - name: youtube
              url: rtmp://127.0.0.1:\(closed)/live2
              key-env: PIPCAM_TEST_STREAM_KEY
        """.write(toFile: description, atomically: true, encoding: .utf8)
        let described = try Command.run([Paths.pipcam, "describe", "--pipeline", description], environment: ["PIPCAM_TEST_STREAM_KEY": key])
        XCTAssertEqual(described.status, 0, described.error)
        XCTAssertTrue(described.error.contains("stream 'youtube' to rtmp://127.0.0.1:\(closed)/live2/****"), described.error)
        let everything = [result.output, result.error, try String(contentsOfFile: events, encoding: .utf8), described.output, described.error]
        for text in everything {
            XCTAssertFalse(text.contains(key), text)
            XCTAssertFalse(text.contains(passphrase), text)
        }
    }

    /// Each is one line naming the stream, a non-zero exit, before any camera opens.
    func testABadStreamIsRefusedBeforeAnythingStarts() throws {
        let folder = try Paths.scratch("stream-bad")
        let cases = [("gopher://h/x", "stream 'gopher': 'gopher' is not a stream"), ("srt://127.0.0.1:70000", "stream 'srt': port 70000 is out of range"),
                     ("rtmp://127.0.0.1/live", "stream 'rtmp': an RTMP address needs an application and a stream key"),
                     ("rtmp://nowhere.invalid/live/key", "stream 'rtmp': host 'nowhere.invalid' does not resolve")]
        for (address, expected) in cases {
            let started = ContinuousClock.now
            let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--force", "--pipeline", demo, "--duration", "5", "--stream", address])
            XCTAssertNotEqual(result.status, 0, address)
            let lines = result.error.split(separator: "\n").filter { $0.hasPrefix("Error:") }
            XCTAssertEqual(lines.count, 1, result.error)
            XCTAssertTrue(result.error.contains(expected), result.error)
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "refused before recording: \(address)")
            XCTAssertFalse(result.output.contains("recorded"), result.output)
        }
    }

    // MARK: helpers

    /// A received stream decodes, with picture and sound, for about `seconds` (when known).
    private func checkReceived(_ file: String, seconds: Double?) throws {
        let probe = try MediaProbe(path: file)
        XCTAssertEqual(probe.videoStreams.map(\.codecName), ["h264"], file)
        XCTAssertEqual(probe.audioStreams.map(\.codecName), ["aac"], file)
        let duration = try XCTUnwrap(probe.duration)
        if let seconds { XCTAssertEqual(duration, seconds, accuracy: 0.5, file) } else { XCTAssertGreaterThan(duration, 5, file) }
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "", file)
    }

    private static func streamEvents(_ file: String, _ what: String) -> Int {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.contains("\"event\":\"stream\"") && $0.contains("\"what\":\"\(what)\"") }.count
    }
}
