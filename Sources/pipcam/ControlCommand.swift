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
    case stop
    case status

    static let names = ["swap", "corner", "layout", "camera", "mute", "photo", "stop", "status"]

    /// One line of the control socket: `{"command":"corner","corner":"top-left"}`.
    init(jsonLine line: String) throws {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(line.utf8))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let key = context.codingPath.last?.stringValue ?? "command"
            throw CLIError(["enabled", "muted"].contains(key) ? "\"\(key)\" must be true or false" : "\"\(key)\" must be a string")
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
        case "photo": self = .photo
        case "stop": self = .stop
        case "status": self = .status
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
    }

    /// A key pressed in the window or the terminal, or nil for keys that do nothing. Cameras and
    /// microphones are numbered in the order of the session's inputs.
    init?(key: String, cameras: [String], microphones: [String]) {
        switch key {
        case "s", "space", " ": self = .swap
        case "c": self = .corner(nil)
        case "l": self = .layout(nil)
        case "1", "2":
            let index = Int(key)! - 1
            guard index < cameras.count else { return nil }
            self = .camera(id: cameras[index], enabled: nil)
        case "m", "n":
            let index = key == "m" ? 0 : 1
            guard index < microphones.count else { return nil }
            self = .mute(id: microphones[index], muted: nil)
        case "p": self = .photo
        case "q", "Escape": self = .stop
        default: return nil
        }
    }

    /// The keys, as the window and the terminal announce them.
    static let keyHelp = "keys: s swap, c corner, l layout, 1/2 camera on/off, m/n mute, p photo, q stop"
}
