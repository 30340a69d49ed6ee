/// A value for a GObject property or a caps field, kept free of C types so callers never see GValue.
public enum PropertyValue: Sendable, Equatable, CustomStringConvertible {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    /// Strings, and enum nicks or flag nicks ("fastdecode+zerolatency") when read back.
    case string(String)
    case caps(Caps)
    case fraction(Int32, Int32)

    public var description: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .caps(let value): return value.description
        case .fraction(let numerator, let denominator): return "\(numerator)/\(denominator)"
        }
    }

    /// The Swift type a user passed, for error messages.
    var typeName: String {
        switch self {
        case .bool: return "a Bool"
        case .int, .uint: return "an integer"
        case .double: return "a Double"
        case .string: return "a String"
        case .caps: return "Caps"
        case .fraction: return "a Fraction"
        }
    }

    public var intValue: Int? {
        switch self {
        case .int(let value): return Int(exactly: value)
        case .uint(let value): return Int(exactly: value)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// Lets plain Swift values be passed where a property value is expected: `set("bitrate", 4000)`.
public protocol PropertyValueConvertible: Sendable {
    var propertyValue: PropertyValue { get }
}

extension PropertyValue: PropertyValueConvertible { public var propertyValue: PropertyValue { self } }
extension Bool: PropertyValueConvertible { public var propertyValue: PropertyValue { .bool(self) } }
extension Int: PropertyValueConvertible { public var propertyValue: PropertyValue { .int(Int64(self)) } }
extension Int32: PropertyValueConvertible { public var propertyValue: PropertyValue { .int(Int64(self)) } }
extension Int64: PropertyValueConvertible { public var propertyValue: PropertyValue { .int(self) } }
extension UInt: PropertyValueConvertible { public var propertyValue: PropertyValue { .uint(UInt64(self)) } }
extension UInt32: PropertyValueConvertible { public var propertyValue: PropertyValue { .uint(UInt64(self)) } }
extension UInt64: PropertyValueConvertible { public var propertyValue: PropertyValue { .uint(self) } }
extension Double: PropertyValueConvertible { public var propertyValue: PropertyValue { .double(self) } }
extension Float: PropertyValueConvertible { public var propertyValue: PropertyValue { .double(Double(self)) } }
extension String: PropertyValueConvertible { public var propertyValue: PropertyValue { .string(self) } }
extension Caps: PropertyValueConvertible { public var propertyValue: PropertyValue { .caps(self) } }

/// A frame rate or any other GStreamer fraction.
public struct Fraction: PropertyValueConvertible, Hashable, Comparable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32
    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    public var propertyValue: PropertyValue { .fraction(numerator, denominator) }
    public var value: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator)/\(denominator)" }
    public static func < (lhs: Fraction, rhs: Fraction) -> Bool { lhs.value < rhs.value }
}
