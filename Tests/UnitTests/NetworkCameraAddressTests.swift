@testable import CaptureGraph
@testable import CaptureModel
import GStreamer
import Foundation
import PipcamTestSupport
import XCTest

/// A network camera's URL as people write it: what it becomes, what is shown of it, what a description
/// refuses, and how its failures read.
final class NetworkCameraAddressTests: XCTestCase {
    func testTheUserAndPasswordLeaveTheAddressAndThePasswordIsNeverShown() throws {
        let camera = try NetworkCamera(url: "rtsp://admin:hunter22@192.0.2.10:8554/stream1?channel=2")
        XCTAssertEqual(camera.kind, .rtsp)
        XCTAssertEqual(camera.address, "rtsp://192.0.2.10:8554/stream1?channel=2")
        XCTAssertEqual(camera.user, "admin")
        XCTAssertEqual(camera.password, "hunter22")
        XCTAssertEqual(camera.shownAddress, "rtsp://admin:****@192.0.2.10:8554/stream1?channel=2")
        XCTAssertEqual(camera.hidingSecrets(in: "401 for admin:hunter22"), "401 for admin:****")
        let encoded = String(decoding: try JSONEncoder().encode(CaptureDevice.networkCamera(id: "hall", camera)), as: UTF8.self)
        XCTAssertFalse(encoded.contains("hunter22"), encoded)
        XCTAssertFalse(CaptureDevice.networkCamera(id: "hall", camera).name.contains("hunter22"))

        let srt = try NetworkCamera(url: "srt://192.0.2.5:9000?passphrase=0123456789abc")
        XCTAssertEqual(srt.kind, .srt)
        XCTAssertFalse(srt.isSRTListener)
        XCTAssertEqual(srt.shownAddress, "srt://192.0.2.5:9000?passphrase=****")
        XCTAssertFalse(String(decoding: try JSONEncoder().encode(srt), as: UTF8.self).contains("0123456789abc"))
        XCTAssertTrue(try NetworkCamera(url: "srt://:9000").isSRTListener)
        XCTAssertEqual(try NetworkCamera(url: "https://cam.example/video.mjpg").kind, .http)
    }

    /// A camera pipcam receives and a stream it sends read an SRT address one way (`SRTAddress`).
    func testACameraAndAStreamReadAnSRTAddressAlike() throws {
        let address = try SRTAddress(afterScheme: "//[fd00::5]:9000?Passphrase=0123456789%20ab&latency=200")
        XCTAssertEqual(address.host, "fd00::5")
        XCTAssertEqual(address.port, 9000)
        XCTAssertEqual(address.options, ["passphrase": "0123456789 ab", "latency": "200"])
        XCTAssertEqual(try NetworkCamera(url: "srt://[fd00::5]:9000?Passphrase=0123456789%20ab").secrets, ["0123456789 ab"])
        XCTAssertEqual(try StreamOutput(name: "s", address: "srt://[fd00::5]:9000?Passphrase=0123456789%20ab").passphrase, "0123456789 ab")
        for text in ["srt://host", "srt://host:9000/path", "srt://user:pw@host:9000", "srt://[::1:9000", "srt://host:99999"] {
            let camera = "\(String(describing: Result { try NetworkCamera(url: text) }))"
            let stream = "\(String(describing: Result { try StreamOutput(name: "s", address: text) }))"
            XCTAssertTrue(camera.contains("failure") && stream.contains("failure"), "\(text): \(camera) \(stream)")
            XCTAssertFalse(camera.contains("pw") || stream.contains("pw"), "no secret in what is said")
        }
    }

    func testWhatIsNotACameraAddressIsOneLine() {
        for (url, expected) in [("ftp://host/x", "'ftp' is not a camera pipcam takes"), ("rtsp:///path", "needs a host"),
                                ("srt://host", "srt://host:port"), ("srt://host:9000/path", "has no path"), ("not a url at all", "is not a URL")] {
            XCTAssertThrowsError(try NetworkCamera(url: url), url) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(url): \(error)")
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            }
        }
    }

    func testADescriptionsNetworkCameraTakesItsLatencyTransportAndPasswordVariable() throws {
        let description = try withEnvironment("PIPCAM_TEST_CAMERA_PASSWORD", "from-the-environment") { try PipelineDescription.parse("""
        cameras:
          - name: hall
            url: rtsp://viewer@192.0.2.10/stream1
            password-env: PIPCAM_TEST_CAMERA_PASSWORD
            latency: 350ms
            delay: 0.12s
            transport: tcp
        """, file: "t.yaml") }
        guard case .network(let camera) = description.cameras.first?.spec else { return XCTFail("\(description.cameras)") }
        XCTAssertEqual(camera.password, "from-the-environment")
        XCTAssertEqual(camera.latency, .milliseconds(350))
        XCTAssertEqual(camera.delay, .milliseconds(120))
        XCTAssertEqual(camera.transport, .tcp)
        let (configuration, _) = try description.configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.inputs.first?.device.name, "rtsp://viewer:****@192.0.2.10/stream1")

        for (entry, expected) in [("    url: rtsp://h/x\n    transport: quic\n", "t.yaml:4"), ("    url: http://h/x\n    transport: tcp\n", "rtsp:// camera only"),
                                  ("    url: rtsp://h/x\n    latency: 9s\n", "latency: expected a time from 0s to 5s"),
                                  ("    url: rtsp://h/x\n    delay: -20ms\n", "delay: expected a time from 0s to 5s"),
                                  ("    synthetic: ball\n    delay: 80ms\n", "applies to a network camera"),
                                  ("    url: rtsp://h/x\n    password-env: PIPCAM_NOT_SET_ANYWHERE\n", "PIPCAM_NOT_SET_ANYWHERE is not set"),
                                  ("    synthetic: ball\n    latency: 200ms\n", "applies to a network camera"),
                                  ("    url: rtsp://h/x\n    device: /dev/video0\n", "give only one of")] {
            XCTAssertThrowsError(try PipelineDescription.parse("cameras:\n  - name: hall\n" + entry, file: "t.yaml"), entry) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(entry): \(error)")
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            }
        }
    }

    /// `camera: hall` on a microphone takes the network camera's sound: the camera's keeper links it,
    /// into a switch whose first input is silence. A camera that cannot send sound is refused in one line
    /// where the microphone is written.
    func testAMicrophoneTakesANetworkCamerasSound() throws {
        let cameras = "cameras:\n  - name: hall\n    url: rtsp://192.0.2.10/stream1\n  - name: desk\n    synthetic: ball\n"
        let description = try PipelineDescription.parse(cameras + "microphones:\n  - name: hall-sound\n    camera: hall\n", file: "t.yaml")
        XCTAssertEqual(description.microphones.first?.spec, .cameraSound("hall"))
        let (configuration, _) = try description.configuration(devices: [], outputPath: "/tmp/x.mkv")
        XCTAssertEqual(configuration.input("hall-sound")?.device.source, .cameraSound(camera: "hall"))
        let plan = try GraphBuilder.plan(for: configuration)
        let sound = try XCTUnwrap(plan.keptSources.first { $0.inputID == "hall" }?.sound, "the camera's keeper takes the sound")
        XCTAssertEqual(plan.node(sound.silence.name)?.factory, .audiotestsrc)
        XCTAssertEqual(plan.node(sound.selector.name)?.factory, .inputSelector)
        XCTAssertTrue(plan.links.contains { $0.to == sound.selector.name && $0.toPad == "sink_0" }, "silence first")
        XCTAssertFalse(plan.links.contains { $0.from == sound.output.name }, "the camera's sound joins the switch once its source is made")
        XCTAssertTrue(plan.launchLine.contains("cam0-src-decode. ! \(sound.next.name).  \(sound.output.name). ! \(sound.selector.name).sink_1"), plan.launchLine)

        XCTAssertThrowsError(try PipelineDescription.parse(cameras + "microphones:\n  - name: a\n    camera: hall\n  - name: b\n    camera: hall\n", file: "t.yaml")) { error in
            XCTAssertTrue("\(error)".hasSuffix("microphone 'b': camera 'hall' gives its sound to microphone 'a' already"), "\(error)")
        }
        var twice = try PipelineDescription.parse(cameras + "microphones:\n  - name: a\n    camera: hall\n", file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv").0
        twice.inputs.append(DeviceInput(device: .cameraSound(id: "b", camera: "hall")))
        XCTAssertThrowsError(try twice.validate()) { XCTAssertTrue("\($0)".contains("camera 'hall' gives its sound to one microphone only"), "\($0)") }
        let web = "cameras:\n  - name: web\n    url: http://192.0.2.11/cam\n"
        for (microphone, expected) in [(cameras + "    camera: lobby\n", "t.yaml:7:5: microphones[0]: microphone 'm': no camera named 'lobby' (cameras: hall, desk)"),
                                       (cameras + "    camera: desk\n", "camera 'desk' is not a network camera"),
                                       (web + "    camera: web\n", "camera 'web' sends MJPEG over HTTP, which carries no sound"),
                                       (cameras + "    camera: hall\n    synthetic: 440\n", "give only one of")] {
            let text = microphone.replacingOccurrences(of: "    camera:", with: "microphones:\n  - name: m\n    camera:")
            XCTAssertThrowsError(try PipelineDescription.parse(text, file: "t.yaml"), microphone) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(microphone): \(error)")
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            }
        }
    }

    /// A network camera is decoded: the cost model counts it there, on no USB bus.
    func testANetworkCamerasDecodeIsCounted() throws {
        let source = CaptureDevice.Source.network(try NetworkCamera(url: "rtsp://192.0.2.10/stream1"))
        XCTAssertEqual(CameraLoad.Origin(source), .network)
        let budget = PixelBudget(generate: 1e9, decode: 1e9, composite: 1e9, encode: 1e9, cores: 2)
        let hall = CameraLoad(inputID: "hall", width: 1920, height: 1080, frameRate: 30, pixelFormat: nil, origin: .network)
        let cost = HardwareCost(cameras: [hall], picture: nil, buses: [:], budget: budget)
        XCTAssertEqual(cost.stages.first { $0.kind == .decode }?.subjects.count, 1, "\(cost.stages)")
        XCTAssertTrue(cost.buses.isEmpty)
    }

    /// A throttle rung asks the drawn inset for half its size, and a network camera for nothing: it
    /// sends the size it sends, and its caps filter asks only for a rate.
    func testAThrottleRungLeavesANetworkCamerasModeAlone() throws {
        let description = try PipelineDescription.parse("""
        preset: low
        cameras:
          - name: hall
            url: rtsp://192.0.2.10/stream1
          - name: desk
            synthetic: ball
        """, file: "t.yaml")
        var (configuration, _) = try description.configuration(devices: [], outputPath: "/tmp/x.mkv")
        let calm = try GraphBuilder.plan(for: configuration).cameraModes
        configuration.throttle = ThrottleSettings(insetScale: 0.5, mainScale: 0.75, frameRate: 15)
        let throttled = try GraphBuilder.plan(for: configuration).cameraModes
        XCTAssertEqual(throttled["hall"], calm["hall"])
        XCTAssertEqual(throttled["desk"]?.width, calm["desk"].map { $0.width / 2 })
    }

    /// A failure reads by its GLib code and the status the source attached, never by GStreamer's text
    /// (here "x"); pipcam's own look at the server is asked only where the code cannot tell.
    func testAFailureReadsAsWhatTheCameraDid() throws {
        let camera = try NetworkCamera(url: "rtsp://10.0.0.9:8554/cam"), withLogin = try NetworkCamera(url: "rtsp://viewer:pw@10.0.0.9/cam")
        let resourceRead = ErrorCode(domain: ErrorCode.resourceDomain, code: 9), streamFailed = ErrorCode(domain: ErrorCode.streamDomain, code: 1)
        func said(_ code: ErrorCode?, status: Int? = nil, undecodable: String? = nil, of camera: NetworkCamera? = nil, look: String? = nil) -> String {
            NetworkCameraFailure(code: code, status: status, undecodable: undecodable).reason(for: camera ?? withLogin, text: "x") { look }
        }
        func unlooked(_ code: ErrorCode?, status: Int? = nil, undecodable: String? = nil, of camera: NetworkCamera) -> String {
            NetworkCameraFailure(code: code, status: status, undecodable: undecodable).reason(for: camera, text: "x") {
                XCTFail("the code tells: no look at the server"); return nil
            }
        }
        XCTAssertEqual(unlooked(.notAuthorized, status: 401, of: withLogin), "it refused the user and password (unauthorized)")
        XCTAssertEqual(unlooked(.notAuthorized, of: camera), "it needs a user and password (unauthorized)")
        XCTAssertEqual(unlooked(.resourceNotFound, status: 404, of: camera), "nothing is at that address (not found)")
        XCTAssertEqual(unlooked(.missingPlugin, undecodable: "text/html", of: camera), "it sends text/html, not a picture pipcam can decode")
        XCTAssertEqual(unlooked(.cannotDemux, of: camera), "it sends no MJPEG pictures (not multipart JPEG)")
        // One code for a connection refused and a host that does not resolve (rtspsrc), or a flow error for
        // both (souphttpsrc with libsoup 3), and libsoup 2's "not found" for a host: the look says which.
        let refused = "nobody listens at 10.0.0.9:8554 (connection refused)"
        XCTAssertEqual(said(resourceRead, look: refused), refused)
        XCTAssertEqual(said(streamFailed, look: refused), refused)
        XCTAssertEqual(said(.resourceNotFound, status: 2, look: refused), refused)
        // A server that looks right: what the stream did.
        XCTAssertEqual(said(resourceRead), "it stopped answering")
        XCTAssertEqual(said(streamFailed), "its stream stopped")
        XCTAssertEqual(said(ErrorCode(domain: "gst-core-error-quark", code: 1)), "x")
    }

    /// What pipcam's own look at a camera's server means: who is there, and whether it is the right kind.
    func testTheServersFirstAnswerTellsWhyACameraCannotBeOpened() throws {
        let rtsp = try NetworkCamera(url: "rtsp://10.0.0.9/cam"), http = try NetworkCamera(url: "http://[::1]:8080/video?x=1")
        XCTAssertEqual(rtsp.endpoint, NetworkEndpoint(host: "10.0.0.9", port: 554))
        XCTAssertEqual(http.endpoint, NetworkEndpoint(host: "::1", port: 8080))
        XCTAssertNil(try NetworkCamera(url: "srt://10.0.0.9:9000").endpoint, "SRT is not asked over TCP")
        XCTAssertEqual(http.greeting, "GET /video?x=1 HTTP/1.0\r\nHost: [::1]\r\nUser-Agent: pipcam\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(rtsp.cause(reach: .refused, firstLine: nil), "nobody listens at 10.0.0.9:554 (connection refused)")
        XCTAssertEqual(rtsp.cause(reach: .noAnswer, firstLine: nil), "nobody answers at 10.0.0.9:554")
        XCTAssertEqual(rtsp.cause(reach: .unknownHost, firstLine: nil), "host '10.0.0.9' does not resolve")
        XCTAssertEqual(rtsp.cause(reach: .open, firstLine: nil), "the server at 10.0.0.9:554 took the connection but never answered")
        XCTAssertEqual(rtsp.cause(reach: .open, firstLine: "HTTP/1.1 400 Bad\u{1B}[31m Request"),
                       "the server at 10.0.0.9:554 is not an RTSP server (it answered 'HTTP/1.1 400 Bad[31m Request')")
        XCTAssertEqual(rtsp.cause(reach: .open, firstLine: "RTSP/1.0 401 Unauthorized"), "it needs a user and password (unauthorized)")
        XCTAssertNil(rtsp.cause(reach: .open, firstLine: "RTSP/1.0 200 OK"))
        XCTAssertEqual(http.cause(reach: .open, firstLine: "HTTP/1.1 404 Not Found"), "nothing is at that address (not found)")
        XCTAssertEqual(http.cause(reach: .open, firstLine: "HTTP/1.0 503 Busy"), "it answered 503 where pictures were expected")
        XCTAssertNil(http.cause(reach: .open, firstLine: "HTTP/1.0 200 OK"))
    }
}
