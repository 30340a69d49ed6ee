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
