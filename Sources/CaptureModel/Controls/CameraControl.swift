/// One control a camera offers (V4L2's extended controls), as `pipcam controls` lists it.
public struct CameraControl: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable {
        case integer, boolean, menu, integerMenu = "integer-menu", button, integer64, bitmask, other
    }

    /// A menu's entry: its index and name (an integer menu's entries are numbers, given as text).
    public struct MenuEntry: Sendable, Hashable, Codable {
        public let index: Int
        public let name: String
        public init(index: Int, name: String) { self.index = index; self.name = name }
    }

    public let id: UInt32
    /// The name to write it by, as v4l2-ctl and GStreamer write it: "white_balance_temperature".
    public let name: String
    /// The driver's name, e.g. "White Balance Temperature".
    public let title: String
    public let kind: Kind
    public let minimum: Int64
    public let maximum: Int64
    public let step: Int64
    public let defaultValue: Int64
    /// What it is set to now; nil for what cannot be read (buttons, write-only controls).
    public var value: Int64?
    public let menu: [MenuEntry]
    /// Not in effect now, e.g. a manual exposure time while exposure is automatic.
    public let inactive: Bool
    public let readOnly: Bool

    public init(id: UInt32, title: String, kind: Kind, minimum: Int64, maximum: Int64, step: Int64, defaultValue: Int64,
                value: Int64?, menu: [MenuEntry] = [], inactive: Bool = false, readOnly: Bool = false) {
        self.id = id
        self.name = Self.key(title)
        self.title = title
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = max(1, step)
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.inactive = inactive
        self.readOnly = readOnly
    }

    static func key(_ title: String) -> String {
        var key = ""
        var gap = false
        for character in title {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if gap && !key.isEmpty { key.append("_") }
                key.append(Character(character.lowercased()))
                gap = false
            } else {
                gap = true
            }
        }
        return key
    }

    /// Whether `value` is one the control takes: in range, on a step from the minimum, a menu's entry.
    public func accepts(_ value: Int64) -> Bool {
        guard value >= minimum, value <= maximum else { return false }
        if kind == .menu || kind == .integerMenu { return menu.contains { Int64($0.index) == value } }
        return (value - minimum) % step == 0
    }

    /// The range as a person reads it: "0…255 (step 1)", "off, 50 Hz, 60 Hz, auto", "on or off".
    public var rangeText: String {
        switch kind {
        case .boolean: return "on or off"
        case .menu, .integerMenu: return menu.map(\.name).joined(separator: ", ")
        case .button: return "a button"
        default: return "\(minimum)…\(maximum)" + (step > 1 ? " (step \(step))" : "")
        }
    }

    /// A value as a person reads it: a menu's entry by its name.
    public func text(of value: Int64) -> String {
        switch kind {
        case .boolean: return value != 0 ? "on" : "off"
        case .menu, .integerMenu: return menu.first { Int64($0.index) == value }?.name ?? String(value)
        default: return String(value)
        }
    }
}
