import CGStreamer

/// A set of media formats (GstCaps), immutable once built.
public final class Caps: @unchecked Sendable, CustomStringConvertible, Equatable {
    let raw: UnsafeMutablePointer<GstCaps>

    /// Adopts a caps reference the caller owns.
    init(adopting raw: UnsafeMutablePointer<GstCaps>) {
        self.raw = raw
    }

    /// Takes a reference of its own on borrowed caps.
    convenience init(retaining raw: UnsafeMutablePointer<GstCaps>) {
        self.init(adopting: pc_caps_ref(raw))
    }

    /// Parses caps in gst-launch syntax: `video/x-raw,width=1280,height=720`.
    public convenience init(_ text: String) throws {
        Gst.ensureInitialized()
        guard let parsed = gst_caps_from_string(text) else { throw GStreamerError.invalidCaps(text) }
        self.init(adopting: parsed)
    }

    /// Fixed raw-video caps with every field GStreamer would otherwise assume written out (colorimetry,
    /// chroma siting), as a decoder states them; nil unless these are fixed raw-video caps.
    public var completedVideoCaps: Caps? {
        guard isFixed, let info = gst_video_info_new() else { return nil }
        defer { gst_video_info_free(info) }
        guard gst_video_info_from_caps(info, raw) != 0, let complete = gst_video_info_to_caps(info) else { return nil }
        return Caps(adopting: complete)
    }

    /// Caps that accept anything.
    public static func any() -> Caps {
        Gst.ensureInitialized()
        return Caps(adopting: gst_caps_new_any())
    }

    deinit { pc_caps_unref(raw) }

    public var description: String { takeString(gst_caps_to_string(raw)) ?? "" }
    public var isAny: Bool { gst_caps_is_any(raw) != 0 }
    public var isEmpty: Bool { gst_caps_is_empty(raw) != 0 }
    public var isFixed: Bool { gst_caps_is_fixed(raw) != 0 }

    public func intersects(_ other: Caps) -> Bool { gst_caps_can_intersect(raw, other.raw) != 0 }

    public func intersection(_ other: Caps) -> Caps { Caps(adopting: gst_caps_intersect(raw, other.raw)) }

    public static func == (lhs: Caps, rhs: Caps) -> Bool { gst_caps_is_equal(lhs.raw, rhs.raw) != 0 }

    /// Each alternative format, in preference order.
    public var structures: [Structure] {
        (0..<gst_caps_get_size(raw)).map { Structure(gst_caps_get_structure(raw, $0)) }
    }

    /// The video geometry these caps describe (they must be fixed raw video caps).
    public var videoInfo: VideoInfo? { VideoInfo(caps: self) }

    /// The audio format these caps describe (they must be fixed raw audio caps).
    public var audioInfo: AudioInfo? { AudioInfo(caps: self) }
}

/// Builds caps field by field with typed values:
/// `CapsBuilder(.rawVideo).set("format", "I420").set("width", 640).caps`. The media type is one of the
/// few pipcam states, so building cannot fail on a bad name, and a field set to nil is left out.
public struct CapsBuilder: Sendable {
    /// The media types pipcam states caps for.
    public enum Media: String, Sendable {
        case rawVideo = "video/x-raw", rawAudio = "audio/x-raw", jpeg = "image/jpeg"
    }

    private var media: Media
    private var fields: [(String, PropertyValue)] = []

    public init(_ media: Media) { self.media = media }

    public func set(_ field: String, _ value: (any PropertyValueConvertible)?) -> CapsBuilder {
        guard let value else { return self }
        var copy = self
        copy.fields.append((field, value.propertyValue))
        return copy
    }

    public var caps: Caps {
        // Each field's GValue is made of its own value's type, so storing it cannot fail either.
        guard let structure = Structure.make(media.rawValue, fields: fields) else {
            preconditionFailure("caps \(media.rawValue) with \(fields.map(\.0)) could not be made")
        }
        let caps = gst_caps_new_empty()!
        gst_caps_append_structure(caps, structure)
        return Caps(adopting: caps)
    }
}

extension Caps {
    /// The caps as a gst-launch line writes them, without GStreamer's type annotations
    /// (`video/x-raw,format=I420,width=640`), when every field is a plain value; otherwise GStreamer's
    /// own text, which gst-launch reads as well.
    public var launchText: String {
        var parts: [String] = []
        for structure in structures {
            var fields = [structure.name]
            for (name, field) in structure.fields {
                guard case .value(let value) = field else { return description }
                switch value {
                case .caps: return description
                case .string(let text) where !text.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:+".contains($0) }): return description
                default: fields.append("\(name)=\(value)")
                }
            }
            parts.append(fields.joined(separator: ","))
        }
        return parts.joined(separator: ";")
    }
}

extension Structure {
    /// GStreamer's rule for structure names (media types, message names): an ASCII letter, then ASCII
    /// letters, digits or "/-_.:+". Checked here because GStreamer asserts on a bad name (a GLib critical).
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/-_.:+".unicodeScalars.contains(scalar))
        }
    }

    /// A new GstStructure, owned by the caller, with typed fields; nil if the name is invalid.
    static func make(_ name: String, fields: [(String, PropertyValue)]) -> UnsafeMutablePointer<GstStructure>? {
        Gst.ensureInitialized()
        guard isValidName(name), let structure = gst_structure_new_empty(name) else { return nil }
        for (field, value) in fields {
            var gvalue = GValue()
            g_value_init(&gvalue, gtype(of: value))
            do {
                try GValueBridge.store(value, into: &gvalue, spec: nil)
            } catch {
                g_value_unset(&gvalue)
                gst_structure_free(structure)
                return nil
            }
            gst_structure_take_value(structure, field, &gvalue)
        }
        return structure
    }

    private static func gtype(of value: PropertyValue) -> GType {
        switch value {
        case .bool: return pc_type_boolean()
        case .int(let number): return Int32(exactly: number) != nil ? pc_type_int() : pc_type_int64()
        case .uint(let number): return Int32(exactly: number) != nil ? pc_type_int() : pc_type_uint64()
        case .double: return pc_type_double()
        case .string: return pc_type_string()
        case .caps: return pc_type_caps()
        case .fraction: return pc_type_fraction()
        }
    }
}

/// One format alternative of caps, or the payload of a message, copied into Swift values.
public struct Structure: Sendable, CustomStringConvertible {
    /// A field's value, including the ranges and lists device caps use.
    public indirect enum Field: Sendable, Equatable {
        case value(PropertyValue)
        case list([Field])
        case intRange(ClosedRange<Int>)
        case fractionRange(Fraction, Fraction)
    }

    public let name: String
    public let fields: [(name: String, value: Field)]
    public let description: String

    init(_ raw: UnsafePointer<GstStructure>) {
        name = String(cString: gst_structure_get_name(raw))
        description = takeString(gst_structure_to_string(raw)) ?? name
        fields = (0..<gst_structure_n_fields(raw)).map { index in
            let fieldName = String(cString: gst_structure_nth_field_name(raw, guint(index)))
            return (fieldName, Structure.field(gst_structure_get_value(raw, fieldName)))
        }
    }

    public subscript(_ field: String) -> Field? {
        fields.first { $0.name == field }?.value
    }

    public func int(_ field: String) -> Int? {
        if case .value(let value) = self[field] { return value.intValue }
        return nil
    }

    /// A list of numbers (one per channel, as the level element posts them).
    public func doubles(_ field: String) -> [Double] {
        guard case .list(let items) = self[field] else { return [] }
        return items.compactMap { if case .value(.double(let number)) = $0 { number } else { nil } }
    }

    public func string(_ field: String) -> String? {
        if case .value(let value) = self[field] { return value.stringValue }
        return nil
    }

    static func field(_ gvalue: UnsafePointer<GValue>) -> Field {
        let type = pc_value_type(gvalue)
        if type == pc_type_list() || type == pc_type_array() {
            let isList = type == pc_type_list()
            let count = isList ? gst_value_list_get_size(gvalue) : gst_value_array_get_size(gvalue)
            return .list((0..<count).map { index in
                field(isList ? gst_value_list_get_value(gvalue, index) : gst_value_array_get_value(gvalue, index))
            })
        }
        if type == pc_type_value_array() {
            return .list((0..<pc_value_array_size(gvalue)).map { field(pc_value_array_nth(gvalue, $0)) })
        }
        if type == pc_type_int_range() {
            let low = Int(gst_value_get_int_range_min(gvalue)), high = Int(gst_value_get_int_range_max(gvalue))
            return .intRange(low...max(low, high))
        }
        if type == pc_type_fraction_range() {
            let low = gst_value_get_fraction_range_min(gvalue)!, high = gst_value_get_fraction_range_max(gvalue)!
            return .fractionRange(
                Fraction(gst_value_get_fraction_numerator(low), gst_value_get_fraction_denominator(low)),
                Fraction(gst_value_get_fraction_numerator(high), gst_value_get_fraction_denominator(high)))
        }
        return .value(GValueBridge.load(gvalue))
    }
}
