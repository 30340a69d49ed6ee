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
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"stream","id":"rtmp","enabled":false}"#), .stream(id: "rtmp", enabled: false))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"stop"}"#), .stop)
    }

    func testControlCommandsSetLockResetAndMatch() throws {
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"control","camera":"front","set":{"zoom":150,"white-balance":"4500K","torch":true}}"#),
                       .control(camera: "front", change: .set([.init(name: "torch", value: "on"), .init(name: "white-balance", value: "4500K"),
                                                                .init(name: "zoom", value: "150")])))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"control","camera":"front","lock":["exposure","white-balance"],"unlock":"focus"}"#),
                       .control(camera: "front", change: .set([.init(name: "exposure", value: "locked"), .init(name: "white-balance", value: "locked"),
                                                                .init(name: "focus", value: "auto")])))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"control","camera":"front","reset":true}"#), .control(camera: "front", change: .reset))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"match","controls":["exposure","white-balance"]}"#), .match(["exposure", "white-balance"]))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"match","controls":[]}"#), .match([]))
        XCTAssertEqual(refusal(#"{"command":"control","set":{"zoom":1}}"#), "\"control\" needs a \"camera\"")
        XCTAssertEqual(refusal(#"{"command":"control","camera":"front"}"#), "\"control\" needs \"set\", \"lock\", \"unlock\" or \"reset\"")
        XCTAssertEqual(refusal(#"{"command":"control","camera":"front","set":[1]}"#), "\"set\" must be an object of controls and values")
        XCTAssertEqual(refusal(#"{"command":"control","camera":"front","reset":true,"lock":"focus"}"#), "\"reset\" puts every control back: give it alone")
        // Keys act on the main camera: zoom in and out a tenth of the range, exposure locked and automatic.
        XCTAssertEqual(ControlCommand(key: "+", cameras: ["a", "b"], microphones: [], main: "b"),
                       .control(camera: "b", change: .set([.init(name: "zoom", value: "+10%")])))
        XCTAssertEqual(ControlCommand(key: "-", cameras: ["a", "b"], microphones: []), .control(camera: "a", change: .set([.init(name: "zoom", value: "-10%")])))
        XCTAssertEqual(ControlCommand(key: "e", cameras: ["a"], microphones: []), .control(camera: "a", change: .set([.init(name: "exposure", value: "locked")])))
        XCTAssertEqual(ControlCommand(key: "E", cameras: ["a"], microphones: []), .control(camera: "a", change: .set([.init(name: "exposure", value: "auto")])))
    }

    func testMistakesAreOneLineNamingTheField() {
        XCTAssertEqual(refusal("corner"), "not a JSON object: corner")
        XCTAssertEqual(refusal(#"{"corner":"top-left"}"#), "no \"command\" (one of \(ControlCommand.names.joined(separator: ", ")))")
        XCTAssertEqual(refusal(#"{"command":"zoom"}"#), "unknown command 'zoom' (commands: \(ControlCommand.names.joined(separator: ", ")))")
        XCTAssertEqual(refusal(#"{"command":"camera"}"#), "\"camera\" needs an \"id\"")
        XCTAssertEqual(refusal(#"{"command":"marker","title":3}"#), "\"title\" must be a string")
        XCTAssertEqual(refusal(#"{"command":"mute","id":"voice","muted":"yes"}"#), "\"muted\" must be true or false")
        XCTAssertEqual(refusal(#"{"command":"corner","corner":"middle"}"#)?.hasPrefix("\"corner\" is one of "), true)
    }

    func testKeysNumberCamerasAndMicrophonesInTheSessionsOrder() {
        let cameras = ["front", "side"], microphones = ["voice"]
        XCTAssertEqual(ControlCommand(key: "2", cameras: cameras, microphones: microphones), .camera(id: "side", enabled: nil))
        XCTAssertEqual(ControlCommand(key: "n", cameras: cameras, microphones: microphones), .mute(id: "voice", muted: nil))
        XCTAssertNil(ControlCommand(key: "N", cameras: cameras, microphones: microphones), "no second microphone")
        XCTAssertEqual(ControlCommand(key: "m", cameras: cameras, microphones: microphones), .marker(title: nil))
        XCTAssertEqual(ControlCommand(key: "p", cameras: cameras, microphones: microphones), .pause(nil))
        XCTAssertEqual(ControlCommand(key: "t", cameras: cameras, microphones: microphones), .photo)
        XCTAssertEqual(ControlCommand(key: "Escape", cameras: cameras, microphones: microphones), .stop)
        XCTAssertNil(ControlCommand(key: "x", cameras: cameras, microphones: microphones))
    }
}
