@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import PipcamTestSupport
import XCTest

/// A stream's address as people write it: what it becomes, what is shown of it, and what is refused.
final class StreamOutputTests: XCTestCase {
    func testEachKindOfAddressBecomesItsDestination() throws {
        XCTAssertEqual(try StreamOutput(name: "a", address: "srt://example.org:9000").destination, .srtCaller(host: "example.org", port: 9000))
        XCTAssertEqual(try StreamOutput(name: "a", address: "srt://:9000").destination, .srtListener(port: 9000))
        XCTAssertEqual(try StreamOutput(name: "a", address: "srt://0.0.0.0:9000?mode=listener").destination, .srtListener(port: 9000))
        XCTAssertEqual(try StreamOutput(name: "a", address: "rtmp://live.example.org/app/key").destination,
                       .rtmp(secure: false, host: "live.example.org", port: 1935, application: "app", key: "key"))
        XCTAssertEqual(try StreamOutput(name: "a", address: "rtmps://[::1]:4443/live/a/b").destination,
                       .rtmp(secure: true, host: "::1", port: 4443, application: "live", key: "a/b"))
        XCTAssertEqual(try StreamOutput(name: "a", address: "hls:/var/www/live").destination, .hls(folder: "/var/www/live"))
        // The key from the environment completes an RTMP address, and is SRT's stream id.
        XCTAssertEqual(try StreamOutput(name: "a", address: "rtmp://h/live", key: "k").destination,
                       .rtmp(secure: false, host: "h", port: 1935, application: "live", key: "k"))
        XCTAssertEqual(try StreamOutput(name: "a", address: "srt://h:1", key: "publish:cam").streamID, "publish:cam")
    }

    func testSecretsAreNeverInWhatIsShownButReachTheSink() throws {
        let rtmp = try StreamOutput(name: "yt", address: "rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl")
        XCTAssertEqual(rtmp.shownAddress, "rtmp://a.rtmp.youtube.com/live2/****")
        XCTAssertEqual(rtmp.sinkAddress, "rtmp://a.rtmp.youtube.com:1935/live2/abcd-efgh-ijkl")
        let srt = try StreamOutput(name: "room", address: "srt://10.0.0.5:9000?streamid=publish:room:u:p&passphrase=very%20secret%21&latency=500")
        XCTAssertEqual(srt.passphrase, "very secret!")
        XCTAssertEqual(srt.shownAddress, "srt://10.0.0.5:9000?streamid=****&passphrase=****&latency=500")
        XCTAssertEqual(srt.sinkAddress, "srt://10.0.0.5:9000?mode=caller&streamid=publish:room:u:p&passphrase=very%20secret%21&latency=500")
        // A server's error that quotes the address shows none of it.
        XCTAssertEqual(srt.hidingSecrets(in: "refused publish:room:u:p with very secret!"), "refused **** with ****")
    }

    func testBadAddressesAreOneLineNamingTheStream() {
        let cases: [(String, StreamProblem)] = [
            ("ftp://host/x", .unknownScheme("ftp")),
            ("srt://host:70000", .portOutOfRange(70000)),
            ("srt://host:0", .portOutOfRange(0)),
        ]
        for (address, problem) in cases {
            XCTAssertThrowsError(try StreamOutput(name: "s", address: address), address) { XCTAssertEqual($0 as? StreamProblem, problem) }
        }
        for address in ["no scheme here", "srt://host", "srt://:x", "rtmp://host/only-app", "rtmp:///live/key", "srt://h:1/path", "srt://h:1?passphrase=short",
                        "srt://bad host:1", "hls:"] {
            XCTAssertThrowsError(try StreamOutput(name: "s", address: address), address) { error in
                let line = CaptureError.streamOutput(name: "s", error as! StreamProblem).description
                XCTAssertTrue(line.hasPrefix("stream 's': "), line)
                XCTAssertFalse(line.contains("\n"), line)
            }
        }
    }

    /// A user and password in an address: RTMP's go to the sink's own properties and are shown as
    /// `user:****@`; every address error, of any form, quotes none of the password.
    func testAPasswordInAnAddressIsNeverInAnError() throws {
        let rtmp = try StreamOutput(name: "r", address: "rtmp://alice:pa%3Ass@127.0.0.1:1936/live/key")
        XCTAssertEqual(rtmp.user, "alice")
        XCTAssertEqual(rtmp.password, "pa:ss")
        XCTAssertEqual(rtmp.shownAddress, "rtmp://alice:****@127.0.0.1:1936/live/****")
        XCTAssertEqual(rtmp.sinkAddress, "rtmp://127.0.0.1:1936/live/key")
        XCTAssertEqual(rtmp.hidingSecrets(in: "server said pa:ss is wrong"), "server said **** is wrong")
        let password = "S3cr3tPW"
        for address in ["rtmp://alice:\(password)@127.0.0.1:x/live/key", "rtmp://alice:\(password)@bad host/live/key",
                        "rtmp://alice:\(password)@127.0.0.1:99999/live/key", "rtmp://alice:\(password)@127.0.0.1/live",
                        "srt://alice:\(password)@127.0.0.1:9000", "srt://127.0.0.1:9000?passphrase=\(password)x&mode=caller",
                        "srt://127.0.0.1:9000?passphrase=\(password)", "alice:\(password)@127.0.0.1:9000", "srt://alice:\(password)@h",
                        "rtmp://alice:\(password)@[::1/live/key"] {
            XCTAssertThrowsError(try StreamOutput(name: "s", address: address), address) { error in
                let line = CaptureError.streamOutput(name: "s", error as! StreamProblem).description
                XCTAssertFalse(line.contains(password), line)
            }
        }
        // Quoting any piece of an address hides its user info and secret query items.
        XCTAssertEqual(SecretText.hint("rtsp://bob:\(password)@cam/x"), "rtsp://bob:****@cam/x")
        XCTAssertEqual(SecretText.hint("bob:\(password)@cam"), "****@cam")
        XCTAssertEqual(SecretText.hint("srt://h:1?streamid=\(password)&latency=9"), "srt://h:1?streamid=****&latency=9")
        // A password that holds '/', '?' or '#', SRT's access-control stream ids, and a camera's pwd=.
        XCTAssertEqual(SecretText.hint("rtsp://admin:ab#1/2?@cam/x"), "rtsp://admin:****@cam/x")
        XCTAssertEqual(SecretText.hint("srt://h:1?streamid=#!::r=live/\(password),m=publish"), "srt://h:1?streamid=****")
        XCTAssertEqual(SecretText.hint("http://cam/cgi?usr=admin&pwd=\(password)"), "http://cam/cgi?usr=admin&pwd=****")
        for address in ["rtmp://bob:pa/\(password)@h/app/k", "rtmp://bob:1234/\(password)@h/app/k"] {
            XCTAssertThrowsError(try StreamOutput(name: "s", address: address), address) { error in
                XCTAssertEqual("\(error)", "a user or password in an RTMP address writes '/' as %2F")
            }
        }
    }

    /// `passphrase-env` (a description key, or `--stream-passphrase-env`) gives SRT's passphrase; RTMP has none.
    func testAPassphraseFromTheEnvironmentIsSRTs() throws {
        XCTAssertEqual(try StreamOutput(name: "s", address: "srt://h:1", passphrase: "0123456789ab").passphrase, "0123456789ab")
        XCTAssertEqual(try StreamOutput(name: "s", address: "srt://h:1").shownAddress, "srt://h:1")
        XCTAssertEqual(try StreamOutput(name: "s", address: "srt://h:1", passphrase: "0123456789ab").shownAddress, "srt://h:1?passphrase=****")
        XCTAssertThrowsError(try StreamOutput(name: "s", address: "srt://h:1", passphrase: "short"))
        XCTAssertThrowsError(try StreamOutput(name: "s", address: "rtmp://h/live/key", passphrase: "0123456789ab"))
    }

    /// A key pasted where the address goes is not repeated in the error.
    func testAnErrorNeverQuotesAWholeAddress() {
        XCTAssertThrowsError(try StreamOutput(name: "s", address: "live_123456789_abcdefghijklmnopqrstuvwxyz")) { error in
            XCTAssertFalse("\(error)".contains("abcdefghijklmnopqrstuvwxyz"), "\(error)")
        }
    }

    func testADescriptionTakesStreamsWithTheKeyFromTheEnvironment() throws {
        let description = try withEnvironment("PIPCAM_STREAM_TEST_KEY", "from-the-environment") { try PipelineDescription.parse("""
            cameras:
              - name: front
                synthetic: smpte
            output:
              file: talk.mkv
              streams:
                - name: youtube
                  url: rtmp://live.example.org/live2
                  key-env: PIPCAM_STREAM_TEST_KEY
                - name: overflow
                  url: srt://192.0.2.5:9000
                  bitrate: 2000
                  size: 1280x720
                  required: true
                - name: web
                  hls: /var/www/live
            """, file: "t.yaml") }
        XCTAssertEqual(description.streams.map(\.name), ["youtube", "overflow", "web"])
        XCTAssertEqual(description.streams[0].destination, .rtmp(secure: false, host: "live.example.org", port: 1935, application: "live2", key: "from-the-environment"))
        XCTAssertEqual(description.streams[1].size, .init(width: 1280, height: 720))
        XCTAssertEqual(description.streams[1].videoBitrate, 2000)
        XCTAssertTrue(description.streams[1].required)
        XCTAssertTrue(description.streams[1].encodesItsOwnPicture)
    }

    func testADescriptionsBadStreamIsOneLineAtItsPlace() {
        let cases = [
            ("    - name: a\n      url: rtmp://h/live\n      key-env: PIPCAM_STREAM_UNSET_VARIABLE\n", "t.yaml:8:16", "PIPCAM_STREAM_UNSET_VARIABLE is not set"),
            ("    - name: a\n      url: gopher://h\n", "t.yaml:7:12", "'gopher' is not a stream"),
            ("    - name: a\n      url: srt://h:1\n    - name: a\n      hls: /tmp/x\n", "t.yaml:8:7", "same name"),
            ("    - url: srt://h:1\n", "t.yaml:6:7", "has a name"),
            ("    - name: a\n      url: srt://h:1\n      size: 1279x720\n", "t.yaml:8:13", "even"),
        ]
        for (streams, place, words) in cases {
            let text = "cameras:\n  - name: front\n    synthetic: smpte\noutput:\n  streams:\n" + streams
            XCTAssertThrowsError(try PipelineDescription.parse(text, file: "t.yaml"), streams) { error in
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1, "\(error)")
                XCTAssertTrue("\(error)".contains(place) && "\(error)".contains(words), "\(error)")
            }
        }
    }

    /// The streams take what the recording encodes: taps on the picture and one AAC encode of the mix;
    /// only a stream of its own size or bitrate adds a picture encoder.
    func testStreamsAddTapsAndOneSoundEncoderToTheGraph() throws {
        var configuration = Fixtures.configuration(path: "/tmp/x.mkv")
        configuration.streams = [try StreamOutput(name: "a", address: "rtmp://h/live/k"), try StreamOutput(name: "b", address: "srt://h:1")]
        let plan = try GraphBuilder.plan(for: configuration)
        XCTAssertNotNil(plan.streamTaps.picture)
        XCTAssertNotNil(plan.streamTaps.aac)
        XCTAssertEqual(plan.nodes.filter { $0.factory == .x264enc }.count, 1)
        XCTAssertEqual(plan.nodes.filter { $0.factory == .voaacenc }.count, 1)
        configuration.streams[1].size = .init(width: 640, height: 360)
        let own = try GraphBuilder.plan(for: configuration)
        XCTAssertEqual(own.nodes.filter { $0.factory == .x264enc }.count, 2)
        XCTAssertNotNil(own.streamTaps.ownPictures["b"])
        configuration.streams.append(configuration.streams[0])
        XCTAssertThrowsError(try GraphBuilder.plan(for: configuration)) { XCTAssertTrue("\($0)".contains("stream 'a': another stream has the same name"), "\($0)") }
    }

    func testTheStatusAndSummarySayEachStream() {
        XCTAssertEqual(StreamStatus(stream: "yt", state: .live, kilobitsPerSecond: 4100).text, "yt live 4.1 Mbit/s")
        XCTAssertEqual(StreamStatus(stream: "yt", state: .reconnecting, kilobitsPerSecond: 0).text, "yt reconnecting")
        let summary = StreamSummary(stream: "yt", address: "rtmp://h/live/****", timeLive: .seconds(9.5), reconnects: 1, bytesSent: 3 << 20, picturesDropped: 0)
        XCTAssertEqual(summary.line, "  stream 'yt' to rtmp://h/live/****: live 9.50 s, 1 reconnect, 3.0 MiB sent")
        XCTAssertEqual(StreamEvent(stream: "yt", kind: .lost(reason: "refused", retry: .seconds(4))).line, "stream 'yt' lost (refused); trying again in 4 s")
        var never = StreamSummary(stream: "yt", address: "rtmp://h/live/****", timeLive: .zero, reconnects: 0, bytesSent: 0, picturesDropped: 0)
        never.everConnected = false
        never.attempts = 7
        never.lastFailure = "nobody answers at h:1935"
        XCTAssertEqual(never.line, "  stream 'yt' to rtmp://h/live/****: never connected, tried 7 times: nobody answers at h:1935")
        XCTAssertEqual(StreamEvent(stream: "yt", kind: .failing(reason: "nobody answers at h:1935")).line,
                       "stream 'yt' cannot connect: nobody answers at h:1935; pipcam keeps trying")
    }

    /// A failure's cause from what pipcam knows, never from GStreamer's words, for each kind of stream.
    func testAFailuresCauseIsSaidInAPersonsWords() throws {
        let rtmp = try StreamOutput(name: "r", address: "rtmp://127.0.0.1/live/key")
        func cause(_ stream: StreamOutput, live: Bool = false, quick: Bool = false, reach: NetworkReach? = nil, unauthorized: Bool = false) -> String {
            stream.cause(of: StreamFailure(wasLive: live, answeredQuickly: quick, reach: reach, notAuthorized: unauthorized, fallback: "raw words"))
        }
        XCTAssertEqual(cause(rtmp, reach: .refused), "nobody listens at 127.0.0.1:1935 (connection refused)")
        XCTAssertEqual(cause(rtmp, reach: .noAnswer), "nobody answers at 127.0.0.1:1935")
        XCTAssertEqual(cause(rtmp, reach: .unreachable), "127.0.0.1:1935 cannot be reached (no route to it)")
        XCTAssertEqual(cause(rtmp, reach: .unknownHost), "host '127.0.0.1' does not resolve")
        XCTAssertEqual(cause(rtmp, quick: true, reach: .open), "the server at 127.0.0.1:1935 refused the stream (check its application and key)")
        XCTAssertEqual(cause(rtmp, reach: .open), "the server at 127.0.0.1:1935 took the connection but never answered")
        XCTAssertEqual(cause(rtmp, live: true, reach: .open), "the server at 127.0.0.1:1935 closed the connection")
        XCTAssertEqual(cause(rtmp, live: true, reach: .refused), "the server at 127.0.0.1:1935 went away (connection refused)")
        XCTAssertEqual(cause(rtmp, unauthorized: true), "the server at 127.0.0.1:1935 needs a user and password")
        XCTAssertEqual(cause(try StreamOutput(name: "r", address: "rtmp://u:p@[::1]:1936/live/key"), unauthorized: true),
                       "the server at [::1]:1936 refused the user and password")
        let srt = try StreamOutput(name: "s", address: "srt://127.0.0.1:9000")
        XCTAssertEqual(cause(srt), "nobody answers at 127.0.0.1:9000")
        XCTAssertEqual(cause(srt, quick: true), "the listener at 127.0.0.1:9000 refused the call: it may want a passphrase or a stream id")
        XCTAssertEqual(cause(try StreamOutput(name: "s", address: "srt://127.0.0.1:9000", passphrase: "0123456789"), quick: true),
                       "the listener at 127.0.0.1:9000 refused the call: a wrong passphrase or stream id")
        XCTAssertEqual(cause(srt, live: true), "the connection to 127.0.0.1:9000 was lost")
        XCTAssertEqual(cause(StreamOutput(name: "h", destination: .hls(folder: "/x"))), "raw words")
    }

    /// `check` and the cost model count a stream's own picture as a second encode, at its size; a stream
    /// of the recording's picture costs none.
    func testAStreamsOwnPictureIsCountedAsASecondEncode() throws {
        var configuration = Fixtures.configuration(path: "/tmp/x.mkv")
        let budget = PixelBudget(generate: 1e12, decode: 1e12, composite: 1e12, encode: 100e6, cores: 2)
        let alone = try configuration.hardwareCost(buses: [:], budget: budget)
        configuration.streams = [try StreamOutput(name: "same", address: "rtmp://h/live/k")]
        let same = try configuration.hardwareCost(buses: [:], budget: budget)
        XCTAssertEqual(same.cpuShare, alone.cpuShare, accuracy: 1e-9)
        configuration.streams.append(try StreamOutput(name: "small", address: "srt://h:1"))
        configuration.streams[1].size = .init(width: 640, height: 360)
        let small = try configuration.hardwareCost(buses: [:], budget: budget)
        let encode = try XCTUnwrap(small.stages.first { $0.kind == .encode })
        XCTAssertTrue(encode.subjects.contains("stream small 640x360 @ 30"), "\(encode.subjects)")
        let extra = 640.0 * 360 * 30 / 100e6 / (2 * PixelBudget.usableShare)
        XCTAssertEqual(small.cpuShare - alone.cpuShare, extra, accuracy: 1e-6)
    }
}
