import Capture
import Foundation

/// What can be changed while previewing or recording. The window's keys, the terminal's keys and the
/// control socket all speak this one vocabulary, so each change has exactly one implementation
/// (`ControlCommandRunner`).
enum ControlCommand: Sendable, Equatable {
    case swap
    /// Moves the inset to a corner; nil takes the next one clockwise.
    case corner(Layout.Corner?)
    /// Changes the layout; nil takes the next one.
    case layout(Layout.Kind?)
    /// Turns a camera on or off; nil toggles it.
    case camera(id: String, enabled: Bool?)
    /// Mutes or unmutes a microphone; nil toggles it.
    case mute(id: String, muted: Bool?)
    case photo
    /// Starts a recording (`pipcam serve`).
    case record
    /// Ends the recording: under `serve`, the recording alone; else the session.
    case stop
    case status
    /// Sets a camera's controls (`ControlSettings`), or puts them all back to their defaults.
    case control(camera: String, change: ControlChange)
    /// Every control of each camera (or of one) as it is now: range, default, value, menu.
    case controls(camera: String?)
    /// The controls the second camera follows the first in (none: it stops following).
    case match([String])
    /// Starts or stops a stream; nil toggles it.
    case stream(id: String, enabled: Bool?)
    /// Changes a microphone's processing (`SoundProcessing`): what the command gives, the rest kept.
    case sound(id: String, change: SoundChange)
    /// Sets a marker (a chapter in the file) now; nil titles it "Marker N".
    case marker(title: String?)
    /// Pauses (true) or resumes (false) the recording; nil the other way round.
    case pause(Bool?)

    enum ControlChange: Sendable, Equatable {
        case set([ControlSettings.Setting])
        case reset
    }

    static let names = ["swap", "corner", "layout", "camera", "mute", "photo", "record", "stop", "status", "control", "controls", "match", "stream", "sound", "marker", "pause", "resume"]

    /// One line of the control socket: `{"command":"corner","corner":"top-left"}`.
    init(jsonLine line: String) throws {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(line.utf8))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let key = context.codingPath.last?.stringValue ?? "command"
            let expected = switch key {
            case "enabled", "muted", "reset": "true or false"
            case "set": "an object of controls and values"
            case "gain", "high-pass", "limiter", "offset": "a number"
            case "lock", "unlock", "controls": "a control's name or a list of them"
            default: "a string"
            }
            throw CLIError("\"\(key)\" must be \(expected)")
        } catch DecodingError.keyNotFound {
            throw CLIError("no \"command\" (one of \(Self.names.joined(separator: ", ")))")
        } catch {
            throw CLIError("not a JSON object: \(line.prefix(80))")
        }
        func choice<T: RawRepresentable & CaseIterable>(_ raw: String?, _ key: String) throws -> T? where T.RawValue == String {
            guard let raw else { return nil }
            guard let value = T(rawValue: raw) else {
                throw CLIError("\"\(key)\" is one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(raw)'")
            }
            return value
        }
        func id() throws -> String {
            guard let id = fields.id else { throw CLIError("\"\(fields.command)\" needs an \"id\"") }
            return id
        }
        switch fields.command {
        case "swap": self = .swap
        case "corner": self = .corner(try choice(fields.corner, "corner"))
        case "layout": self = .layout(try choice(fields.kind, "kind"))
        case "camera": self = .camera(id: try id(), enabled: fields.enabled)
        case "mute": self = .mute(id: try id(), muted: fields.muted)
        case "stream": self = .stream(id: try id(), enabled: fields.enabled)
        case "sound":
            let change = SoundChange(gain: fields.gain, highPass: fields.highPass, noiseSuppression: fields.noiseSuppression,
                                     limiter: fields.limiter, offset: fields.offset)
            guard change != SoundChange() else { throw CLIError("\"sound\" needs \"gain\", \"high-pass\", \"noise-suppression\", \"limiter\" or \"offset\"") }
            self = .sound(id: try id(), change: change)
        case "photo": self = .photo
        case "marker": self = .marker(title: fields.title)
        case "pause": self = .pause(true)
        case "resume": self = .pause(false)
        case "record": self = .record
        case "stop": self = .stop
        case "status": self = .status
        case "control":
            guard let camera = fields.camera else { throw CLIError("\"control\" needs a \"camera\"") }
            var settings = (fields.set ?? [:]).sorted { $0.key < $1.key }.map { ControlSettings.Setting(name: $0.key, value: $0.value.text) }
            settings += (fields.lock?.names ?? []).map { ControlSettings.Setting(name: $0, value: "locked") }
            settings += (fields.unlock?.names ?? []).map { ControlSettings.Setting(name: $0, value: "auto") }
            if fields.reset == true {
                guard settings.isEmpty else { throw CLIError("\"reset\" puts every control back: give it alone") }
                self = .control(camera: camera, change: .reset)
            } else {
                guard !settings.isEmpty else { throw CLIError("\"control\" needs \"set\", \"lock\", \"unlock\" or \"reset\"") }
                self = .control(camera: camera, change: .set(settings))
            }
        case "controls": self = .controls(camera: fields.camera)
        case "match":
            guard let names = fields.controls?.names else { throw CLIError("\"match\" needs \"controls\": the names the second camera follows the first in ([] stops)") }
            self = .match(names)
        default: throw CLIError("unknown command '\(fields.command)' (commands: \(Self.names.joined(separator: ", ")))")
        }
    }

    /// The fields a command line may carry; which ones a command reads depends on the command.
    private struct Fields: Decodable {
        let command: String
        let corner: String?
        let kind: String?
        let id: String?
        let enabled: Bool?
        let muted: Bool?
        let camera: String?
        let set: [String: Loose]?
        let lock: Names?
        let unlock: Names?
        let reset: Bool?
        let controls: Names?
        let gain: Double?
        let highPass: Double?
        let noiseSuppression: String?
        let limiter: Double?
        let offset: Int?
        let title: String?

        enum CodingKeys: String, CodingKey {
            case command, corner, kind, id, enabled, muted, camera, set, lock, unlock, reset, controls, gain, limiter, offset, title
            case highPass = "high-pass"
            case noiseSuppression = "noise-suppression"
        }
    }

    /// A control's value as JSON gives it: text, a number or true/false, kept as the text a description
    /// would hold.
    private struct Loose: Decodable {
        let text: String
        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int64.self) { text = String(number) }
            else if let number = try? value.decode(Double.self) { text = String(number) }
            else if let flag = try? value.decode(Bool.self) { text = flag ? "on" : "off" }
            else { text = try value.decode(String.self) }
        }
    }

    /// One control's name or a list of them.
    private struct Names: Decodable {
        let names: [String]
        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let one = try? value.decode(String.self) { names = [one] } else { names = try value.decode([String].self) }
        }
    }

    /// A key pressed in the window or the terminal, or nil for keys that do nothing. Cameras and
    /// microphones are numbered in the order of the session's inputs; zoom and exposure keys act on the
    /// main camera.
    init?(key: String, cameras: [String], microphones: [String], main: String? = nil) {
        switch key {
        case "s", "space", " ": self = .swap
        case "c": self = .corner(nil)
        case "l": self = .layout(nil)
        case "1", "2":
            let index = Int(key)! - 1
            guard index < cameras.count else { return nil }
            self = .camera(id: cameras[index], enabled: nil)
        case "n", "N":
            let index = key == "n" ? 0 : 1
            guard index < microphones.count else { return nil }
            self = .mute(id: microphones[index], muted: nil)
        case "[", "]", "{", "}", "bracketleft", "bracketright", "braceleft", "braceright":
            // A microphone's gain a step down or up: the first's with [ ], the second's with { }.
            let index = ["[", "]", "bracketleft", "bracketright"].contains(key) ? 0 : 1
            guard index < microphones.count else { return nil }
            let up = ["]", "}", "bracketright", "braceright"].contains(key)
            self = .sound(id: microphones[index], change: SoundChange(gainStep: up ? SoundChange.keyStep : -SoundChange.keyStep))
        case "m": self = .marker(title: nil)
        case "p": self = .pause(nil)
        case "t": self = .photo
        case "q", "Escape": self = .stop
        case "+", "=", "-", "plus", "equal", "minus", "KP_Add", "KP_Subtract":
            // The terminal gives the character; the window, X's name for the key.
            guard let main = main ?? cameras.first else { return nil }
            let out = ["-", "minus", "KP_Subtract"].contains(key)
            self = .control(camera: main, change: .set([.init(name: "zoom", value: out ? "-10%" : "+10%")]))
        case "e", "E":
            guard let main = main ?? cameras.first else { return nil }
            self = .control(camera: main, change: .set([.init(name: "exposure", value: key == "e" ? "locked" : "auto")]))
        default: return nil
        }
    }

    /// The keys, as the window and the terminal announce them.
    static let keyHelp = "keys: s swap, c corner, l layout, 1/2 camera on/off, n/N mute, m marker, p pause/resume, t photo, +/- zoom, e/E exposure locked/auto, q stop"
}
