import Foundation

/// Settings for a camera's controls, by the names people know (AVFoundation's where it has them) or by
/// the V4L2 name, turned into the writes that make them, in an order that works.
///
/// - `focus`, `exposure`, `white-balance`, `gain`: `auto`, `locked` (the value auto reached, fixed: read
///   first, then auto off, then the value written back, as AVFoundation's `.locked`), or a value, which
///   turns auto off first. Focus takes 0…1 (a share of its range, with a decimal point) or a raw number;
///   exposure a time (`10ms`, `1/60`, `0.005s`) or raw units of 100 µs; white balance kelvin (`4500K`).
/// - `zoom`, `pan`, `tilt`, `brightness`, `contrast`, `saturation`, `sharpness`, `hue`, `gamma`,
///   `backlight-compensation`: a raw number, or a share of the range (`0.5`).
/// - `anti-flicker`: 50, 60, off or auto (the power line's frequency); `torch`: on or off.
/// - any other control by its V4L2 name (`pipcam controls` lists them): a number, on/off, or a menu entry.
/// - a change from the value now, as a share of the range: `+10%`, `-5%` (what the zoom keys send).
public enum ControlSettings {
    /// A setting as written: `exposure: locked`, `brightness: 200`.
    public struct Setting: Sendable, Hashable, Codable {
        public let name: String
        public let value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    /// One write, or a value read before any write (for `locked`).
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        public enum Value: Sendable, Equatable {
            case fixed(Int64)
            /// The control's value as it is when the settings start to apply.
            case current
            /// The value now moved by this much, within the range (a key that zooms in a step).
            case relative(Int64)
        }

        public let control: CameraControl
        public let value: Value

        public init(control: CameraControl, value: Value) {
            self.control = control
            self.value = value
        }

        public var description: String {
            switch value {
            case .fixed(let number): "\(control.name)=\(control.text(of: number))"
            case .current: "\(control.name)=(its value now)"
            case .relative(let change): "\(control.name)\(change < 0 ? "-" : "+")=\(abs(change))"
            }
        }
    }

    /// A friendly name: the V4L2 controls it may be (the first the camera has), and its automatic mode.
    struct Name: Sendable {
        let manual: [String]
        let automatic: [String]
        let kind: ValueKind
    }

    enum ValueKind: Sendable { case number, share, time, kelvin, frequency, onOff }

    static let names: [String: Name] = [
        "focus": Name(manual: ["focus_absolute"], automatic: ["focus_automatic_continuous", "focus_auto"], kind: .share),
        "exposure": Name(manual: ["exposure_time_absolute", "exposure_absolute"], automatic: ["auto_exposure", "exposure_auto"], kind: .time),
        "white-balance": Name(manual: ["white_balance_temperature"], automatic: ["white_balance_automatic", "white_balance_temperature_auto"], kind: .kelvin),
        "gain": Name(manual: ["gain"], automatic: ["gain_automatic", "autogain"], kind: .share),
        "zoom": Name(manual: ["zoom_absolute"], automatic: [], kind: .share),
        "pan": Name(manual: ["pan_absolute"], automatic: [], kind: .share),
        "tilt": Name(manual: ["tilt_absolute"], automatic: [], kind: .share),
        "brightness": Name(manual: ["brightness"], automatic: [], kind: .share),
        "contrast": Name(manual: ["contrast"], automatic: [], kind: .share),
        "saturation": Name(manual: ["saturation"], automatic: [], kind: .share),
        "sharpness": Name(manual: ["sharpness"], automatic: [], kind: .share),
        "hue": Name(manual: ["hue"], automatic: [], kind: .share),
        "gamma": Name(manual: ["gamma"], automatic: [], kind: .share),
        "backlight-compensation": Name(manual: ["backlight_compensation"], automatic: [], kind: .share),
        "anti-flicker": Name(manual: ["power_line_frequency"], automatic: [], kind: .frequency),
        "torch": Name(manual: ["led1_mode", "flash_led_mode"], automatic: [], kind: .onOff),
    ]

    /// The V4L2 controls that switch an automatic mode: put back first when controls are reset.
    public static let automaticSwitches = Set(names.values.flatMap(\.automatic))

    /// Why a setting cannot be made, in one line naming the camera, the control and what it takes.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let camera: String
        public let setting: String
        public let reason: String
        public var description: String { "camera '\(camera)': \(setting) \(reason)" }
    }

    /// The writes that make `settings` (in the order given) on a camera with `controls`: every automatic
    /// mode switched first (off before a manual value is written, on for `auto`), then the values.
    /// Settings the camera cannot take are problems; with `force`, they are left out and returned as
    /// problems beside the steps instead of thrown.
    public static func plan(_ settings: [Setting], camera: String, controls: [CameraControl],
                            force: Bool = false) throws -> (steps: [Step], skipped: [Problem]) {
        var switches: [Step] = []
        var values: [Step] = []
        var skipped: [Problem] = []
        for setting in settings {
            do {
                let (switchStep, valueStep) = try steps(name: setting.name, value: setting.value, camera: camera, controls: controls)
                if let switchStep { switches.append(switchStep) }
                if let valueStep { values.append(valueStep) }
            } catch let problem as Problem {
                if !force { throw problem }
                skipped.append(problem)
            }
        }
        return (switches + values, skipped)
    }

    /// The control a name means on this camera: a friendly name's manual control, or a V4L2 name.
    public static func control(named name: String, in controls: [CameraControl]) -> CameraControl? {
        let keys = names[name]?.manual ?? [CameraControl.key(name)]
        return keys.lazy.compactMap { key in controls.first { $0.name == key } }.first
    }

    private static func steps(name: String, value text: String, camera: String, controls: [CameraControl]) throws -> (Step?, Step?) {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        func problem(_ reason: String) -> Problem { Problem(camera: camera, setting: name, reason: reason) }
        let friendly = names[name]
        guard let manual = control(named: name, in: controls) else {
            let known = controls.filter { !$0.readOnly }.map(\.name)
            throw problem("is not a control this camera has (it has: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        let automatic = automaticControl(named: name, in: controls)
        if value == "auto" || value == "locked" {
            guard let automatic, let on = automaticValue(automatic, on: true), let off = automaticValue(automatic, on: false) else {
                if friendly?.kind == .frequency, value == "auto" { return (nil, try Self.value(value, for: manual, kind: .frequency, problem: problem)) }
                throw problem("has no automatic mode on this camera (give a value: \(manual.rangeText))")
            }
            if value == "auto" { return (Step(control: automatic, value: .fixed(on)), nil) }
            // Locked: the value auto reached, read before auto is switched off, written back after.
            return (Step(control: automatic, value: .fixed(off)), Step(control: manual, value: .current))
        }
        guard !manual.readOnly else { throw problem("is read-only on this camera") }
        let step: Step
        if value.hasSuffix("%"), let sign = value.first, sign == "+" || sign == "-", let share = Double(value.dropFirst().dropLast()), (0...100).contains(share) {
            let change = max(manual.step, Int64((share / 100 * Double(manual.maximum - manual.minimum) / Double(manual.step)).rounded()) * manual.step)
            step = Step(control: manual, value: .relative(sign == "-" ? -change : change))
        } else {
            step = try Self.value(value, for: manual, kind: friendly?.kind, problem: problem)
        }
        if let automatic, let off = automaticValue(automatic, on: false) { return (Step(control: automatic, value: .fixed(off)), step) }
        return (nil, step)
    }

    /// The control that switches a friendly name's automatic mode on this camera, if it has one.
    public static func automaticControl(named name: String, in controls: [CameraControl]) -> CameraControl? {
        names[name]?.automatic.lazy.compactMap { key in controls.first { $0.name == key } }.first
    }

    /// An automatic mode's value for on or off: a switch's 1 or 0; for V4L2's exposure menu, manual mode
    /// (1) for off and, for on, aperture priority (3, what webcams call auto) or else auto (0).
    static func automaticValue(_ control: CameraControl, on: Bool) -> Int64? {
        switch control.kind {
        case .boolean: return on ? 1 : 0
        case .menu:
            let names = control.menu.map { (Int64($0.index), $0.name.lowercased()) }
            if !on { return names.first { $0.1.contains("manual") }?.0 }
            return (names.first { $0.1.contains("aperture") } ?? names.first { $0.1.hasPrefix("auto") })?.0
        default: return nil
        }
    }

    private static func value(_ text: String, for control: CameraControl, kind: ValueKind?, problem: (String) -> Problem) throws -> Step {
        func fixed(_ number: Int64) throws -> Step {
            guard control.accepts(number) else { throw problem("\(text) is out of range: \(control.rangeText)") }
            return Step(control: control, value: .fixed(number))
        }
        func rounded(_ number: Double) -> Int64 {
            let steps = ((number - Double(control.minimum)) / Double(control.step)).rounded()
            return control.minimum + Int64(steps) * control.step
        }
        switch kind {
        case .time?:
            // V4L2's exposure time is in units of 100 µs.
            if let seconds = Self.seconds(text) { return try fixed(Int64((seconds * 10_000).rounded())) }
        case .kelvin?:
            if text.hasSuffix("k"), let kelvin = Int64(text.dropLast()) { return try fixed(kelvin) }
        case .frequency?:
            let entry = ["50": "50", "60": "60", "off": "disabled", "auto": "auto"][text]
            if let entry, let found = control.menu.first(where: { $0.name.lowercased().hasPrefix(entry) }) { return try fixed(Int64(found.index)) }
            throw problem("takes 50, 60, off or auto (this camera: \(control.rangeText))")
        case .onOff?:
            guard text == "on" || text == "off" else { throw problem("takes on or off") }
            let wanted = text == "on" ? ["on", "torch"] : ["off", "none"]
            if let found = control.menu.first(where: { wanted.contains($0.name.lowercased()) }) { return try fixed(Int64(found.index)) }
            return try fixed(text == "on" ? 1 : 0)
        default:
            break
        }
        if kind == .share || kind == .time || kind == .kelvin || kind == nil, text.contains("."), let share = Double(text) {
            guard (0...1).contains(share) else { throw problem("\(text) is out of range: a share is 0.0…1.0 (or give a raw value: \(control.rangeText))") }
            return try fixed(min(control.maximum, rounded(Double(control.minimum) + share * Double(control.maximum - control.minimum))))
        }
        if let number = Int64(text) { return try fixed(number) }
        switch control.kind {
        case .boolean:
            if let on = ["on": true, "true": true, "yes": true, "off": false, "false": false, "no": false][text] { return try fixed(on ? 1 : 0) }
        case .menu, .integerMenu:
            if let found = control.menu.first(where: { $0.name.lowercased() == text || CameraControl.key($0.name) == CameraControl.key(text) }) {
                return try fixed(Int64(found.index))
            }
        default:
            break
        }
        let expected = switch kind {
        case .time?: "auto, locked, a time (10ms, 1/60, 0.005s) or a raw value: \(control.rangeText)"
        case .kelvin?: "auto, locked or a temperature in kelvin: \(control.rangeText)"
        default: control.rangeText
        }
        throw problem("'\(text)' is not a value it takes (\(expected))")
    }

    /// "10ms", "1/60", "0.005s", "250us" as seconds.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        if parts.count == 2, let top = Double(parts[0]), let bottom = Double(parts[1]), bottom > 0 { return top / bottom }
        for (suffix, scale) in [("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("s", 1.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
