import CGStreamer

/// Converts between `PropertyValue` and GValue. The GValue's type always comes from GLib (a property's
/// GParamSpec, or a caps field's existing type), so a Swift value of the wrong kind is caught here with
/// a message instead of a GLib critical.
enum GValueBridge {
    struct Mismatch: Error {
        let expected: String
        let invalidValue: Bool
    }

    /// The GLib name of a type, e.g. "gint" or "GstX264EncTune".
    static func typeName(_ type: GType) -> String {
        g_type_name(type).map { String(cString: $0) } ?? "unknown type"
    }

    /// Stores `value` into `gvalue`, which must already be initialized to the target type.
    static func store(_ value: PropertyValue, into gvalue: inout GValue, spec: UnsafeMutablePointer<GParamSpec>?) throws(Mismatch) {
        let type = pc_value_type(&gvalue)
        let fundamental = pc_type_fundamental(type)
        let expected = typeName(type)
        func mismatch() -> Mismatch { Mismatch(expected: expected, invalidValue: false) }
        func invalid() -> Mismatch { Mismatch(expected: expected, invalidValue: true) }

        if type == pc_type_fraction() {
            guard case .fraction(let numerator, let denominator) = value else {
                if case .string(let text) = value { return try deserialize(text, into: &gvalue, spec: spec, expected: expected) }
                throw mismatch()
            }
            gst_value_set_fraction(&gvalue, numerator, denominator)
            return
        }
        if type == pc_type_caps() {
            switch value {
            case .caps(let caps): gst_value_set_caps(&gvalue, caps.raw)
            case .string(let text):
                guard let caps = try? Caps(text) else { throw invalid() }
                gst_value_set_caps(&gvalue, caps.raw)
            default: throw mismatch()
            }
            return
        }

        switch fundamental {
        case pc_type_boolean():
            guard case .bool(let flag) = value else { throw mismatch() }
            g_value_set_boolean(&gvalue, flag ? 1 : 0)
        case pc_type_int(), pc_type_long(), pc_type_int64(), pc_type_uint(), pc_type_ulong(), pc_type_uint64():
            try storeInteger(value, fundamental: fundamental, into: &gvalue, expected: expected)
        case pc_type_float(), pc_type_double():
            guard let number = value.doubleValue else { throw mismatch() }
            if fundamental == pc_type_float() { g_value_set_float(&gvalue, gfloat(number)) }
            else { g_value_set_double(&gvalue, number) }
        case pc_type_string():
            guard case .string(let text) = value else { throw mismatch() }
            g_value_set_string(&gvalue, text)
        case pc_type_enum():
            switch value {
            case .string(let text): try deserialize(text, into: &gvalue, spec: spec, expected: expected)
            case .int(let number): g_value_set_enum(&gvalue, gint(truncatingIfNeeded: number))
            default: throw mismatch()
            }
        case pc_type_flags():
            switch value {
            case .string(let text): try deserialize(text, into: &gvalue, spec: spec, expected: expected)
            case .int, .uint:
                guard let number = unsignedInteger(value), let narrow = guint(exactly: number) else { throw invalid() }
                g_value_set_flags(&gvalue, narrow)
            default: throw mismatch()
            }
        default:
            guard case .string(let text) = value else { throw mismatch() }
            try deserialize(text, into: &gvalue, spec: spec, expected: expected)
        }
        // GLib clamps out-of-range numbers with a warning; treat that as the caller's error instead.
        if let spec, g_param_value_validate(spec, &gvalue) != 0 { throw invalid() }
    }

    /// Stores a whole number into an integer GValue of any width and sign: one that does not fit is the
    /// caller's error, never truncated.
    private static func storeInteger(_ value: PropertyValue, fundamental: GType, into gvalue: inout GValue, expected: String) throws(Mismatch) {
        func mismatch() -> Mismatch { Mismatch(expected: expected, invalidValue: false) }
        func invalid() -> Mismatch { Mismatch(expected: expected, invalidValue: true) }
        switch fundamental {
        case pc_type_int(), pc_type_long(), pc_type_int64():
            guard let number = signedInteger(value) else { throw mismatch() }
            switch fundamental {
            case pc_type_int():
                guard let narrow = gint(exactly: number) else { throw invalid() }
                g_value_set_int(&gvalue, narrow)
            case pc_type_long():
                g_value_set_long(&gvalue, glong(number))
            default:
                g_value_set_int64(&gvalue, gint64(number))
            }
        case pc_type_uint(), pc_type_ulong(), pc_type_uint64():
            guard let number = unsignedInteger(value) else {
                if signedInteger(value) != nil { throw invalid() }
                throw mismatch()
            }
            switch fundamental {
            case pc_type_uint():
                guard let narrow = guint(exactly: number) else { throw invalid() }
                g_value_set_uint(&gvalue, narrow)
            case pc_type_ulong():
                g_value_set_ulong(&gvalue, gulong(number))
            default:
                g_value_set_uint64(&gvalue, guint64(number))
            }
        default:
            throw mismatch()
        }
    }

    /// Parses text the way gst-launch does (enum nicks, flags "a+b", caps, fractions, numbers).
    static func deserialize(_ text: String, into gvalue: inout GValue, spec: UnsafeMutablePointer<GParamSpec>?, expected: String) throws(Mismatch) {
        let parsed = spec.map { gst_value_deserialize_with_pspec(&gvalue, text, $0) } ?? gst_value_deserialize(&gvalue, text)
        guard parsed != 0 else { throw Mismatch(expected: expected, invalidValue: true) }
    }

    /// Reads any GValue pipcam meets into a Swift value.
    static func load(_ gvalue: UnsafePointer<GValue>) -> PropertyValue {
        let type = pc_value_type(gvalue)
        if type == pc_type_fraction() {
            return .fraction(gst_value_get_fraction_numerator(gvalue), gst_value_get_fraction_denominator(gvalue))
        }
        if type == pc_type_caps() {
            guard let caps = gst_value_get_caps(gvalue) else { return .string("") }
            return .caps(Caps(retaining: UnsafeMutablePointer(mutating: caps)))
        }
        switch pc_type_fundamental(type) {
        case pc_type_boolean(): return .bool(g_value_get_boolean(gvalue) != 0)
        case pc_type_int(): return .int(Int64(g_value_get_int(gvalue)))
        case pc_type_long(): return .int(Int64(g_value_get_long(gvalue)))
        case pc_type_int64(): return .int(Int64(g_value_get_int64(gvalue)))
        case pc_type_uint(): return .uint(UInt64(g_value_get_uint(gvalue)))
        case pc_type_ulong(): return .uint(UInt64(g_value_get_ulong(gvalue)))
        case pc_type_uint64(): return .uint(UInt64(g_value_get_uint64(gvalue)))
        case pc_type_float(): return .double(Double(g_value_get_float(gvalue)))
        case pc_type_double(): return .double(g_value_get_double(gvalue))
        case pc_type_string(): return .string(g_value_get_string(gvalue).map { String(cString: $0) } ?? "")
        case pc_type_enum():
            let number = g_value_get_enum(gvalue)
            guard let enumClass = g_type_class_ref(type) else { return .int(Int64(number)) }
            defer { g_type_class_unref(enumClass) }
            guard let entry = g_enum_get_value(enumClass.assumingMemoryBound(to: GEnumClass.self), number) else {
                return .int(Int64(number))
            }
            return .string(String(cString: entry.pointee.value_nick))
        case pc_type_flags(): return .string(flagNicks(g_value_get_flags(gvalue), type: type))
        default:
            return .string(takeString(gst_value_serialize(gvalue)) ?? "")
        }
    }

    /// Flags as their nicks joined by "+" ("fastdecode+zerolatency"), the form `set` accepts back;
    /// GStreamer's own serialization uses the long names ("Fast decode+Zero latency").
    private static func flagNicks(_ value: guint, type: GType) -> String {
        guard let flagsClass = g_type_class_ref(type) else { return String(value) }
        defer { g_type_class_unref(flagsClass) }
        let flags = flagsClass.assumingMemoryBound(to: GFlagsClass.self)
        if value == 0 { return g_flags_get_first_value(flags, 0).map { String(cString: $0.pointee.value_nick) } ?? "0" }
        var nicks: [String] = []
        var remaining = value
        while remaining != 0, let flag = g_flags_get_first_value(flags, remaining), flag.pointee.value != 0 {
            nicks.append(String(cString: flag.pointee.value_nick))
            remaining &= ~flag.pointee.value
        }
        // Bits without a name have no nick: the number says it all.
        return remaining == 0 ? nicks.joined(separator: "+") : String(value)
    }

    private static func signedInteger(_ value: PropertyValue) -> Int64? {
        switch value {
        case .int(let number): return number
        case .uint(let number): return Int64(exactly: number)
        default: return nil
        }
    }

    private static func unsignedInteger(_ value: PropertyValue) -> UInt64? {
        switch value {
        case .int(let number): return UInt64(exactly: number)
        case .uint(let number): return number
        default: return nil
        }
    }
}
