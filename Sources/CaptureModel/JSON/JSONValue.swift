import Foundation

/// Every JSON pipcam writes goes through here, so every output reads the same way in jq, Python or a
/// browser: keys in sorted order (lines of a log diff cleanly, and a reader can rely on it), `/` left as
/// it is (paths are most of what pipcam writes; Foundation's encoders write `\/`), and a number that is
/// not finite written as `null` (Foundation's encoders fail on one, interpolating it prints `nan`, and
/// strict readers refuse `nan`, `NaN` and `Infinity` alike).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// `value` rounded to `places` decimals: measurements are written to the precision they mean
    /// (milliseconds, per mille), not to the last bit of a Double.
    public static func number(_ value: Double, places: Int) -> JSONValue {
        let scale = pow(10, Double(places))
        let rounded = (value * scale).rounded() / scale
        return .number(rounded.isFinite ? rounded : value)
    }

    /// On one line: for JSON-lines files and control-socket answers.
    public var text: String {
        var text = ""
        write(to: &text, indent: nil)
        return text
    }

    /// Indented by two spaces, one field a line: for files people open (devices --json, photo sidecars).
    public var indentedText: String {
        var text = ""
        write(to: &text, indent: "")
        return text
    }

    private func write(to text: inout String, indent: String?) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .number(let value): text += Self.numberText(value)
        case .string(let value): Self.writeString(value, to: &text)
        case .array(let items):
            writeContainer(items, open: "[", close: "]", to: &text, indent: indent) { item, text, inner in
                item.write(to: &text, indent: inner)
            }
        case .object(let fields):
            // Byte order of the UTF-8 keys: the same as code-point order, which is what Python's
            // sort_keys and jq -S use.
            let sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            writeContainer(sorted, open: "{", close: "}", to: &text, indent: indent) { field, text, inner in
                Self.writeString(field.key, to: &text)
                text += inner == nil ? ":" : ": "
                field.value.write(to: &text, indent: inner)
            }
        }
    }

    private func writeContainer<Element>(_ elements: [Element], open: String, close: String, to text: inout String, indent: String?,
                                         writeElement: (Element, inout String, String?) -> Void) {
        text += open
        guard !elements.isEmpty else {
            text += close
            return
        }
        let inner = indent.map { $0 + "  " }
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            if let inner { text += "\n" + inner }
            writeElement(element, &text, inner)
        }
        if let indent { text += "\n" + indent }
        text += close
    }

    /// Whole numbers without a fraction ("30", not "30.0"), as most JSON writers do, so a reader that
    /// tells integers from reals sees a frame count or a rate of 30 as the same thing either way.
    private static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Only what JSON requires is escaped (quote, backslash, control characters); everything else,
    /// `/` and non-ASCII text included, is written as it is, as UTF-8.
    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringInterpolation, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements) { $1 }) }
}
