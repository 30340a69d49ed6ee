import Capture
import Foundation
@testable import pipcam
import PipcamTestSupport
import XCTest

/// What pipcam's commands write as JSON, read as strictly as other tools read it.
final class JSONOutputTests: XCTestCase {
    func testDevicesJSONIsStrictJSON() throws {
        let result = try Command.run([Paths.pipcam, "devices", "--json"])
        XCTAssertEqual(result.status, 0, result.error)
        let listing = try XCTUnwrap(try StrictJSON.parse(result.output) as? [String: Any], result.output)
        XCTAssertNotNil(listing["cameras"] as? [Any])
        XCTAssertNotNil(listing["microphones"] as? [Any])
        XCTAssertFalse(result.output.contains(#"\/"#), result.output)
    }

    func testADevicesListingShowsNodePathsAsWrittenWithKeysInOrder() throws {
        let camera = CaptureDevice(id: "/dev/v4l/by-id/usb-Cam-video-index0", name: "Cam \"HD\"", mediaType: .video, position: .front,
                                   busInfo: "usb-0000:00:14.0-1", source: .v4l2(path: "/dev/video0"),
                                   formats: [VideoFormat(pixelFormat: "MJPG", width: 1280, height: 720, frameRates: [30, .nan])])
        let microphone = CaptureDevice(id: "Loopback,1,0", name: "Loopback", mediaType: .audio, source: .alsa(device: "hw:Loopback,1,0"))
        let text = try JSONValue(encoding: Devices.Listing([camera, microphone])).indentedText
        XCTAssertTrue(text.contains(#""node": "/dev/video0""#), text)
        XCTAssertTrue(text.contains(#""id": "/dev/v4l/by-id/usb-Cam-video-index0""#), text)
        let listing = try XCTUnwrap(try StrictJSON.parse(text) as? [String: Any], text)
        let cameras = try XCTUnwrap(listing["cameras"] as? [[String: Any]])
        XCTAssertEqual(cameras.first?["name"] as? String, #"Cam "HD""#)
        XCTAssertEqual(cameras.first?["busInfo"] as? String, "usb-0000:00:14.0-1")
        let rates = try XCTUnwrap((cameras.first?["formats"] as? [[String: Any]])?.first?["frameRates"] as? [Any])
        XCTAssertEqual(rates.first as? Double, 30)
        XCTAssertTrue(rates.last is NSNull, text)
        let microphones = try XCTUnwrap(listing["microphones"] as? [[String: Any]])
        XCTAssertEqual(microphones.first?["node"] as? String, "hw:Loopback,1,0")
        XCTAssertNil(microphones.first?["busInfo"], "left out when unknown, as before")
    }

    func testAnAnalysisLineWritesWhatCouldNotBeMeasuredAsNull() throws {
        let device = "/dev/v4l/by-id/usb-Cam-video-index0"
        let text = String(decoding: AnalysisLog.line(.frame(device: device, time: .milliseconds(2500), sequence: 7, meanLuma: .nan, motion: 0.123456)),
                          as: UTF8.self)
        XCTAssertTrue(text.contains(#""\#(device)""#), text)
        let line = try XCTUnwrap(try StrictJSON.parseLines(text).first as? [String: Any])
        XCTAssertEqual(line["event"] as? String, "frame")
        XCTAssertEqual(line["device"] as? String, device)
        XCTAssertEqual(line["time"] as? Double, 2.5)
        XCTAssertEqual(line["sequence"] as? Int, 7)
        XCTAssertTrue(line["luma"] is NSNull, text)
        XCTAssertEqual(line["motion"] as? Double, 0.1235, "rounded to 4 places")
    }

    func testAnAnalysisLineWritesAnInfiniteValueAsNull() throws {
        let frame = AnalysisLog.line(.frame(device: "cam", time: .seconds(3), sequence: 8, meanLuma: .infinity, motion: -.infinity))
        let advice = AnalysisLog.line(.advice(device: "cam", time: .seconds(4), advice: .tooDark(meanLuma: -.infinity)))
        let text = String(decoding: frame + advice, as: UTF8.self)
        let lines = try StrictJSON.parseLines(text).map { try XCTUnwrap($0 as? [String: Any]) }
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0]["luma"] is NSNull, text)
        XCTAssertTrue(lines[0]["motion"] is NSNull, text)
        XCTAssertEqual(lines[1]["advice"] as? String, "too-dark")
        XCTAssertTrue(lines[1]["luma"] is NSNull, text)
    }

    func testAControlAnswerShowsPathsAsWritten() throws {
        let answer = ControlAnswer.carriedOut(["photo": "/tmp/photos/20250101-120000.json", "layout": "pip"]).line
        XCTAssertTrue(answer.contains(#""/tmp/photos/20250101-120000.json""#), answer)
        let read = try XCTUnwrap(try StrictJSON.parse(answer) as? [String: Any])
        XCTAssertEqual(read["photo"] as? String, "/tmp/photos/20250101-120000.json")
    }

    func testAControlAnswerWritesANonFiniteNumberAsNull() throws {
        let answer = ControlAnswer.carriedOut(["elapsed": .number(.nan)]).line
        let read = try XCTUnwrap(try StrictJSON.parse(answer) as? [String: Any])
        XCTAssertEqual(read["ok"] as? Bool, true, answer)
        XCTAssertTrue(read["elapsed"] is NSNull, answer)
    }
}
