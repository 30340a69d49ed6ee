import Foundation
import PipcamTestSupport
import XCTest

/// What pipcam says of a stream is what a server has: never live, never "sent" while nothing took the
/// stream; each failure said once, in a person's words, with its cause; no password anywhere. Against
/// ports nobody listens on, a host of the test's own that never answers, and a listener that refuses
/// the passphrase; the file whole each time.
final class StreamStateTests: XCTestCase {
    private let demo = "\(Paths.repository)/pipelines/demo.yaml"

    /// RTMP and SRT to ports nobody listens on, watched through the page: not live in the status, the
    /// metrics, the events or the summary, and each stream's cause said once in 8 s of retries.
    func testAStreamNobodyTakesIsNeverLiveAndSaysWhyOnce() throws {
        let folder = try Paths.scratch("stream-nobody")
        let (rtmpPort, srtPort, webPort) = (freeLocalPort(), freeLocalPort(udp: true), freeLocalPort())
        let events = "\(folder)/events.jsonl"
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "8", "--events", events,
                                           "--web", "127.0.0.1:\(webPort)",
                                           "--stream", "rtmp://127.0.0.1:\(rtmpPort)/live/key", "--stream", "srt://127.0.0.1:\(srtPort)"])
        defer { recording.signal(SIGKILL) }
        try WebClients.waitUntilServing(recording, port: webPort)
        // Past SRT's first try (3 s without an answer) and several of RTMP's.
        try WebClient.waitUntilElapsed(webPort, 5)
        let metrics = try WebClient.request(webPort, "/metrics").text
        XCTAssertTrue(metrics.contains(#"pipcam_stream_live{stream="rtmp"} 0"#), metrics)
        XCTAssertTrue(metrics.contains(#"pipcam_stream_live{stream="srt"} 0"#), metrics)
        let status = try WebClient.request(webPort, "/api/status").text
        XCTAssertFalse(status.contains(#""live""#), status)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)

        let said = result.error.split(separator: "\n")
        XCTAssertEqual(said.filter { $0.contains("stream 'rtmp'") }, ["stream 'rtmp' cannot connect: nobody listens at 127.0.0.1:\(rtmpPort) (connection refused); pipcam keeps trying"])
        XCTAssertEqual(said.filter { $0.contains("stream 'srt'") }, ["stream 'srt' cannot connect: nobody answers at 127.0.0.1:\(srtPort); pipcam keeps trying"])
        for text in [result.output, result.error] {
            XCTAssertFalse(text.contains("connected\n") || text.contains("fell behind") || text.contains(" live "), text)
        }
        XCTAssertTrue(result.output.range(of: "stream 'rtmp' to rtmp://127.0.0.1:\(rtmpPort)/live/\\*\\*\\*\\*: never connected, tried [2-9] times: nobody listens at",
                                          options: .regularExpression) != nil, result.output)
        XCTAssertTrue(result.output.contains("stream 'srt' to srt://127.0.0.1:\(srtPort): never connected"), result.output)
        XCTAssertFalse(result.output.contains("MiB sent"), result.output)
        let streamEvents = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains(#""event":"stream""#) }
        XCTAssertEqual(streamEvents.count, 2, streamEvents.joined(separator: "\n"))
        XCTAssertTrue(streamEvents.allSatisfy { $0.contains(#""what":"failing""#) }, streamEvents.joined(separator: "\n"))
        try checkWhole("\(folder)/kept.mkv", seconds: 8)
    }

    /// A host that never answers (a namespace whose route leads nowhere): each stream says so once, is
    /// never live, and the stop does not wait on a connect: the run ends within a second of the same
    /// recording without streams.
    func testAHostThatNeverAnswersIsSaidSoAndTheStopDoesNotWaitForIt() throws {
        let folder = try Paths.scratch("stream-black-hole")
        let hole = try BlackHole()
        defer { hole.remove() }
        let started = ContinuousClock.now
        let result = try Command.run(hole.launcher + [Paths.pipcam, "record", "\(folder)/streamed.mkv", "--pipeline", demo, "--duration", "8",
                                                      "--stream", "rtmp://\(hole.address)/live/key", "--stream", "srt://\(hole.address):9000"])
        let streamed = ContinuousClock.now - started
        XCTAssertEqual(result.status, 0, result.error)
        let baselineStart = ContinuousClock.now
        let alone = try Command.run(hole.launcher + [Paths.pipcam, "record", "\(folder)/alone.mkv", "--pipeline", demo, "--duration", "8"])
        let baseline = ContinuousClock.now - baselineStart
        XCTAssertEqual(alone.status, 0, alone.error)
        XCTAssertLessThan(streamed - baseline, .seconds(1), "with streams \(streamed), without \(baseline)")

        let said = result.error.split(separator: "\n")
        XCTAssertEqual(said.filter { $0.contains("stream 'rtmp'") }, ["stream 'rtmp' cannot connect: nobody answers at \(hole.address):1935; pipcam keeps trying"])
        XCTAssertEqual(said.filter { $0.contains("stream 'srt'") }, ["stream 'srt' cannot connect: nobody answers at \(hole.address):9000; pipcam keeps trying"])
        XCTAssertTrue(result.output.contains("stream 'rtmp' to rtmp://\(hole.address)/live/****: never connected"), result.output)
        XCTAssertTrue(result.output.contains("stream 'srt' to srt://\(hole.address):9000: never connected"), result.output)
        try checkWhole("\(folder)/streamed.mkv", seconds: 8)
    }

    /// A listener whose passphrase is not the one given (from the environment, never the command line):
    /// the line says the listener refused it; with the right one the stream is live and arrives.
    func testAListenerThatRefusesThePassphraseIsSaidSo() throws {
        let folder = try Paths.scratch("stream-passphrase")
        let receiver = try SRTReceiver(folder: folder, passphrase: "the-right-passphrase")
        defer { receiver.stop() }
        let refused = try Command.run([Paths.pipcam, "record", "\(folder)/refused.mkv", "--pipeline", demo, "--duration", "4",
                                       "--stream", receiver.url, "--stream-passphrase-env", "PIPCAM_TEST_PASSPHRASE"],
                                      environment: ["PIPCAM_TEST_PASSPHRASE": "a-wrong-passphrase"])
        XCTAssertEqual(refused.status, 0, refused.error)
        XCTAssertEqual(refused.error.split(separator: "\n").filter { $0.contains("stream 'srt'") },
                       ["stream 'srt' cannot connect: the listener at 127.0.0.1:\(receiver.port) refused the call: a wrong passphrase or stream id; pipcam keeps trying"])
        XCTAssertFalse((refused.output + refused.error).contains("a-wrong-passphrase"))
        try checkWhole("\(folder)/refused.mkv", seconds: 4)

        let taken = try Command.run([Paths.pipcam, "record", "\(folder)/taken.mkv", "--pipeline", demo, "--duration", "4",
                                     "--stream", receiver.url, "--stream-passphrase-env", "srt=PIPCAM_TEST_PASSPHRASE"],
                                    environment: ["PIPCAM_TEST_PASSPHRASE": "the-right-passphrase"])
        XCTAssertEqual(taken.status, 0, taken.error)
        XCTAssertTrue(taken.error.contains("stream 'srt' connected"), taken.error)
        XCTAssertTrue(taken.output.contains("stream 'srt' to srt://127.0.0.1:\(receiver.port)?passphrase=****: live"), taken.output)
        receiver.stop()
        XCTAssertGreaterThan(try XCTUnwrap(try MediaProbe(path: receiver.file).duration), 2.5)
    }

    /// A user and password in a stream's address, however it is written and wherever it fails: in the
    /// errors, the output, the events, `describe`, the page's status and its metrics, never the password.
    func testAPasswordInAStreamAddressIsNowhere() throws {
        let folder = try Paths.scratch("stream-password")
        let password = "pw-\(UUID().uuidString.prefix(8))", key = "key-\(UUID().uuidString.prefix(8))"
        for address in ["rtmp://alice:\(password)@127.0.0.1:x/live/\(key)", "srt://alice:\(password)@127.0.0.1:9000", "alice:\(password)@127.0.0.1:9000",
                        "rtmp://alice:\(password)@bad host/live/\(key)", "rtmp://alice:\(password)@127.0.0.1:99999/live/\(key)"] {
            let refused = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--force", "--pipeline", demo, "--duration", "2", "--stream", address])
            XCTAssertNotEqual(refused.status, 0, address)
            XCTAssertEqual(refused.error.split(separator: "\n").filter { $0.hasPrefix("Error:") }.count, 1, refused.error)
            XCTAssertFalse(refused.error.contains(password) || refused.output.contains(password), refused.error)
        }

        let (closed, webPort) = (freeLocalPort(), freeLocalPort())
        let events = "\(folder)/events.jsonl"
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "5", "--events", events,
                                           "--web", "127.0.0.1:\(webPort)", "--stream", "rtmp://alice:\(password)@127.0.0.1:\(closed)/live/\(key)"])
        defer { recording.signal(SIGKILL) }
        try WebClients.waitUntilServing(recording, port: webPort)
        try WebClient.waitUntilElapsed(webPort, 2)
        let page = [try WebClient.request(webPort, "/api/status").text, try WebClient.request(webPort, "/metrics").text]
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.output.contains("stream 'rtmp' to rtmp://alice:****@127.0.0.1:\(closed)/live/****"), result.output)

        let description = "\(folder)/streams.yaml"
        try (String(contentsOfFile: demo, encoding: .utf8) + """

              streams:
                - name: hall
                  url: rtmp://alice:\(password)@127.0.0.1:\(closed)/live
                  key-env: PIPCAM_TEST_STREAM_KEY
            """).write(toFile: description, atomically: true, encoding: .utf8)
        let described = try Command.run([Paths.pipcam, "describe", "--pipeline", description], environment: ["PIPCAM_TEST_STREAM_KEY": key])
        XCTAssertEqual(described.status, 0, described.error)
        XCTAssertTrue(described.error.contains("stream 'hall' to rtmp://alice:****@127.0.0.1:\(closed)/live/****"), described.error)
        for text in page + [result.output, result.error, try String(contentsOfFile: events, encoding: .utf8), described.output, described.error] {
            XCTAssertFalse(text.contains(password), text)
            XCTAssertFalse(text.contains(key), text)
        }
    }

    /// An HLS folder that is missing is made at the start; one that cannot be made is one line before
    /// anything records.
    func testAnHLSFolderIsMadeOrRefusedAtTheStart() throws {
        let folder = try Paths.scratch("stream-hls-folder")
        let made = try Command.run([Paths.pipcam, "record", "\(folder)/kept.mkv", "--pipeline", demo, "--duration", "5", "--stream", "hls:\(folder)/web/live"])
        XCTAssertEqual(made.status, 0, made.error)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/web/live/index.m3u8"), made.error)
        XCTAssertTrue(made.error.contains("stream 'hls' connected"), made.error)

        try "not a folder".write(toFile: "\(folder)/file", atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let refused = try Command.run([Paths.pipcam, "record", "\(folder)/refused.mkv", "--pipeline", demo, "--duration", "5", "--stream", "hls:\(folder)/file/live"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
        XCTAssertEqual(refused.error.split(separator: "\n").filter { !$0.isEmpty }, ["Error: stream 'hls': its folder \(folder)/file/live cannot be used: \(folder)/file is a file"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/refused.mkv"))
    }

    /// Every picture of `seconds` at 30 a second, and a file that reads without an error.
    private func checkWhole(_ file: String, seconds: Int) throws {
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), Double(seconds * 30), accuracy: 1, file)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "", file)
    }
}
