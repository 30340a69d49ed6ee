import Capture
@testable import pipcam
import XCTest

/// The control socket's lines and the window's keys, read into commands without a session.
final class ControlCommandTests: XCTestCase {
    private func refusal(_ line: String) -> String? {
        do {
            _ = try ControlCommand(jsonLine: line)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testEachCommandIsReadWithItsFields() throws {
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"swap"}"#), .swap)
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"corner","corner":"top-left"}"#), .corner(.topLeft))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"corner"}"#), .corner(nil))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"layout","kind":"side-by-side"}"#), .layout(.sideBySide))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"camera","id":"front","enabled":false}"#), .camera(id: "front", enabled: false))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"mute","id":"voice"}"#), .mute(id: "voice", muted: nil))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"stop"}"#), .stop)
    }

    func testMistakesAreOneLineNamingTheField() {
        XCTAssertEqual(refusal("corner"), "not a JSON object: corner")
        XCTAssertEqual(refusal(#"{"corner":"top-left"}"#), "no \"command\" (one of \(ControlCommand.names.joined(separator: ", ")))")
        XCTAssertEqual(refusal(#"{"command":"zoom"}"#), "unknown command 'zoom' (commands: \(ControlCommand.names.joined(separator: ", ")))")
        XCTAssertEqual(refusal(#"{"command":"camera"}"#), "\"camera\" needs an \"id\"")
        XCTAssertEqual(refusal(#"{"command":"mute","id":"voice","muted":"yes"}"#), "\"muted\" must be true or false")
        XCTAssertEqual(refusal(#"{"command":"corner","corner":"middle"}"#)?.hasPrefix("\"corner\" is one of "), true)
    }

    func testKeysNumberCamerasAndMicrophonesInTheSessionsOrder() {
        let cameras = ["front", "side"], microphones = ["voice"]
        XCTAssertEqual(ControlCommand(key: "2", cameras: cameras, microphones: microphones), .camera(id: "side", enabled: nil))
        XCTAssertEqual(ControlCommand(key: "m", cameras: cameras, microphones: microphones), .mute(id: "voice", muted: nil))
        XCTAssertNil(ControlCommand(key: "n", cameras: cameras, microphones: microphones), "no second microphone")
        XCTAssertEqual(ControlCommand(key: "Escape", cameras: cameras, microphones: microphones), .stop)
        XCTAssertNil(ControlCommand(key: "x", cameras: cameras, microphones: microphones))
    }
}
