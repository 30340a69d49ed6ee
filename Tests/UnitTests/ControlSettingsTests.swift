@testable import CaptureModel
import XCTest

/// Camera control settings by the names people know: which V4L2 control each is, the values it takes,
/// the order the writes go in, and `locked`.
final class ControlSettingsTests: XCTestCase {
    /// The controls of a common UVC webcam, as the driver lists them.
    private let webcam: [CameraControl] = [
        CameraControl(id: 0x0098_0900, title: "Brightness", kind: .integer, minimum: -64, maximum: 64, step: 1, defaultValue: 0, value: 0),
        CameraControl(id: 0x0098_090C, title: "White Balance, Automatic", kind: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1),
        CameraControl(id: 0x0098_0918, title: "Power Line Frequency", kind: .menu, minimum: 0, maximum: 2, step: 1, defaultValue: 1, value: 1,
                      menu: [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz")]),
        CameraControl(id: 0x0098_091A, title: "White Balance Temperature", kind: .integer, minimum: 2800, maximum: 6500, step: 10,
                      defaultValue: 4600, value: 4600, inactive: true),
        CameraControl(id: 0x009A_0901, title: "Auto Exposure", kind: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3, value: 3,
                      menu: [.init(index: 1, name: "Manual Mode"), .init(index: 3, name: "Aperture Priority Mode")]),
        CameraControl(id: 0x009A_0902, title: "Exposure Time, Absolute", kind: .integer, minimum: 3, maximum: 2047, step: 1, defaultValue: 250,
                      value: 156, inactive: true),
        CameraControl(id: 0x009A_090A, title: "Focus, Absolute", kind: .integer, minimum: 0, maximum: 250, step: 5, defaultValue: 0, value: 0),
        CameraControl(id: 0x009A_090C, title: "Focus, Automatic Continuous", kind: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1),
        CameraControl(id: 0x009A_090D, title: "Zoom, Absolute", kind: .integer, minimum: 100, maximum: 500, step: 1, defaultValue: 100, value: 100),
    ]

    private func plan(_ pairs: [(String, String)], force: Bool = false) throws -> [String] {
        try ControlSettings.plan(pairs.map { .init(name: $0.0, value: $0.1) }, camera: "front", controls: webcam, force: force).steps.map(\.description)
    }

    private func problem(_ name: String, _ value: String) -> String {
        do {
            return "planned: \(try plan([(name, value)]))"
        } catch {
            return "\(error)"
        }
    }

    func testV4L2NamesAreWrittenAsV4L2CtlAndGStreamerWriteThem() {
        XCTAssertEqual(webcam.map(\.name), ["brightness", "white_balance_automatic", "power_line_frequency", "white_balance_temperature",
                                            "auto_exposure", "exposure_time_absolute", "focus_absolute", "focus_automatic_continuous", "zoom_absolute"])
    }

    func testFriendlyNamesMeanTheirV4L2Controls() throws {
        XCTAssertEqual(try plan([("zoom", "150")]), ["zoom_absolute=150"])
        XCTAssertEqual(try plan([("anti-flicker", "60")]), ["power_line_frequency=60 Hz"])
        XCTAssertEqual(try plan([("anti-flicker", "off")]), ["power_line_frequency=Disabled"])
        XCTAssertEqual(try plan([("white-balance", "4500K")]), ["white_balance_automatic=off", "white_balance_temperature=4500"])
        XCTAssertEqual(try plan([("power_line_frequency", "50 Hz")]), ["power_line_frequency=50 Hz"], "any control by its V4L2 name, a menu by its entry")
        XCTAssertEqual(try plan([("Focus, Absolute", "20")]), ["focus_absolute=20"], "or by the driver's title")
    }

    func testValuesTakeTimesSharesAndAutomaticModes() throws {
        // V4L2 exposure time is in units of 100 µs; automatic exposure on a webcam is aperture priority.
        XCTAssertEqual(try plan([("exposure", "10ms")]), ["auto_exposure=Manual Mode", "exposure_time_absolute=100"])
        XCTAssertEqual(try plan([("exposure", "1/60")]), ["auto_exposure=Manual Mode", "exposure_time_absolute=167"])
        XCTAssertEqual(try plan([("exposure", "auto")]), ["auto_exposure=Aperture Priority Mode"])
        // A share of the range, rounded to the control's step; an integer is raw.
        XCTAssertEqual(try plan([("focus", "0.5")]), ["focus_automatic_continuous=off", "focus_absolute=125"])
        XCTAssertEqual(try plan([("focus", "0.51")]), ["focus_automatic_continuous=off", "focus_absolute=130"])
        XCTAssertEqual(try plan([("brightness", "1.0")]), ["brightness=64"])
        XCTAssertEqual(try plan([("brightness", "-10")]), ["brightness=-10"])
        XCTAssertEqual(try plan([("focus", "auto")]), ["focus_automatic_continuous=on"])
        XCTAssertEqual(try plan([("zoom", "+10%")]), ["zoom_absolute+=40"])
    }

    /// Automatic modes go first: a manual value is refused (or undone) while its automatic mode is on.
    func testAutomaticModesAreSwitchedBeforeAnyValueIsWritten() throws {
        XCTAssertEqual(try plan([("brightness", "10"), ("exposure", "20ms"), ("white-balance", "auto"), ("focus", "100")]),
                       ["auto_exposure=Manual Mode", "white_balance_automatic=on", "focus_automatic_continuous=off",
                        "brightness=10", "exposure_time_absolute=200", "focus_absolute=100"])
    }

    /// Locked keeps what auto reached: the value is read before auto is switched off, then written back.
    func testLockedReadsTheValueThenSwitchesAutoOffThenWritesItBack() throws {
        XCTAssertEqual(try plan([("exposure", "locked")]), ["auto_exposure=Manual Mode", "exposure_time_absolute=(its value now)"])
        XCTAssertEqual(try plan([("white-balance", "locked")]), ["white_balance_automatic=off", "white_balance_temperature=(its value now)"])
    }

    func testWhatACameraCannotTakeIsOneLineNamingCameraControlAndRange() {
        XCTAssertEqual(problem("brightness", "100"), "camera 'front': brightness 100 is out of range: -64…64")
        XCTAssertEqual(problem("focus", "7"), "camera 'front': focus 7 is out of range: 0…250 (step 5)")
        XCTAssertEqual(problem("brightness", "auto"), "camera 'front': brightness has no automatic mode on this camera (give a value: -64…64)")
        XCTAssertEqual(problem("exposure", "fast"),
                       "camera 'front': exposure 'fast' is not a value it takes (auto, locked, a time (10ms, 1/60, 0.005s) or a raw value: 3…2047)")
        XCTAssertEqual(problem("anti-flicker", "55"), "camera 'front': anti-flicker takes 50, 60, off or auto (this camera: Disabled, 50 Hz, 60 Hz)")
        XCTAssertEqual(problem("tilt", "10"), "camera 'front': tilt is not a control this camera has (it has: brightness, white_balance_automatic, "
                       + "power_line_frequency, white_balance_temperature, auto_exposure, exposure_time_absolute, focus_absolute, focus_automatic_continuous, zoom_absolute)")
        XCTAssertEqual(problem("zoom", "1.5"), "camera 'front': zoom 1.5 is out of range: a share is 0.0…1.0 (or give a raw value: 100…500)")
        for text in [problem("brightness", "100"), problem("tilt", "10"), problem("exposure", "fast")] { XCTAssertFalse(text.contains("\n")) }
    }

    func testForcedSettingsLeaveOutWhatTheCameraCannotTakeAndKeepTheRest() throws {
        let (steps, skipped) = try ControlSettings.plan([.init(name: "tilt", value: "10"), .init(name: "zoom", value: "200")], camera: "front",
                                                        controls: webcam, force: true)
        XCTAssertEqual(steps.map(\.description), ["zoom_absolute=200"])
        XCTAssertEqual(skipped.map(\.setting), ["tilt"])
    }

    func testTimesAreReadInTheirUnits() {
        XCTAssertEqual(ControlSettings.seconds("10ms"), 0.01)
        XCTAssertEqual(ControlSettings.seconds("250us"), 0.00025)
        XCTAssertEqual(ControlSettings.seconds("1/50"), 0.02)
        XCTAssertEqual(ControlSettings.seconds("0.5s"), 0.5)
        XCTAssertNil(ControlSettings.seconds("fast"))
    }

    /// The follower takes the leader's values (to its own step and range), its automatic mode off first;
    /// nothing is written while the two are alike.
    func testAFollowerIsWrittenTheLeadersValuesAndOnlyWhenTheyDiffer() {
        var leader = webcam
        leader[5].value = 300  // exposure time, set by the leader's automatic exposure
        leader[0].value = 20   // brightness
        var follower = webcam
        follower[6] = CameraControl(id: 0x009A_090A, title: "Focus, Absolute", kind: .integer, minimum: 0, maximum: 100, step: 10, defaultValue: 0, value: 0)
        leader[6].value = 125
        XCTAssertEqual(ControlMatch.steps(for: ["exposure", "brightness", "focus"], leader: leader, follower: follower).map(\.description),
                       ["auto_exposure=Manual Mode", "focus_automatic_continuous=off", "exposure_time_absolute=300", "brightness=20", "focus_absolute=100"])
        follower[4].value = 1; follower[5].value = 300; follower[0].value = 20
        XCTAssertEqual(ControlMatch.steps(for: ["exposure", "brightness"], leader: leader, follower: follower).map(\.description), [])
        XCTAssertEqual(ControlMatch.steps(for: ["tilt"], leader: leader, follower: follower).map(\.description), [], "what either lacks is left alone")
    }
}
