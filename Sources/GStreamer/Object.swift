import CGStreamer
import Foundation

/// How a wrapper takes hold of a GstObject pointer handed to it.
enum Ownership {
    /// A new object from a factory: its floating reference becomes ours.
    case sinkFloating
    /// A reference the caller already owns (transfer full): ours now, no extra ref.
    case adopt
    /// A borrowed pointer (transfer none): take a reference of our own.
    case retain
}

/// Which GstObject something is, as a value that outlives any wrapper of it: a bus message names the
/// object that posted it and the bins it sat in this way, so the graph knows an element by what it is,
/// never by its name or path. Valid while the object lives (an address is reused only after it is freed).
public struct ObjectIdentity: Hashable, Sendable {
    let address: UInt

    init(_ raw: UnsafeMutablePointer<GstObject>) { address = UInt(bitPattern: raw) }
}

/// A GstObject held by ARC: the wrapper owns exactly one reference and drops it in `deinit`.
/// GstObjects are thread-safe for the operations exposed here, hence `@unchecked Sendable`.
public class Object: @unchecked Sendable, CustomStringConvertible {
    let raw: UnsafeMutablePointer<GstObject>

    init(_ pointer: UnsafeMutableRawPointer, _ ownership: Ownership) {
        Gst.ensureInitialized()
        raw = pc_gst_object(pointer)
        switch ownership {
        case .sinkFloating: gst_object_ref_sink(raw)
        case .adopt: break
        case .retain: gst_object_ref(raw)
        }
    }

    deinit {
        gst_object_unref(raw)
    }

    /// The object's name (unique among its siblings in a bin).
    public var name: String {
        takeString(gst_object_get_name(raw)) ?? ""
    }

    /// The full path in the bin hierarchy, e.g. "/GstPipeline:session/GstCompositor:mixer".
    public var path: String {
        takeString(gst_object_get_path_string(raw)) ?? name
    }

    public var identity: ObjectIdentity { ObjectIdentity(raw) }

    /// The GLib type name, e.g. "GstCompositorPad".
    public var typeName: String {
        String(cString: pc_object_type_name(raw))
    }

    public var description: String { "\(typeName) '\(name)'" }

    /// The current GObject reference count, for leak checks and debugging.
    public var referenceCount: Int {
        Int(pc_object_ref_count(raw))
    }

    // MARK: properties

    /// The name used in error messages: elements by name, pads as element:pad.
    var errorName: String {
        if let parent = gst_object_get_parent(raw) {
            defer { gst_object_unref(parent) }
            let parentName = takeString(gst_object_get_name(parent)) ?? ""
            if pc_is_element(parent) != 0 && pc_is_element(raw) == 0 { return "\(parentName):\(name)" }
        }
        return name
    }

    private func paramSpec(_ property: String) throws -> UnsafeMutablePointer<GParamSpec> {
        guard let spec = g_object_class_find_property(pc_object_get_class(raw), property) else {
            throw GStreamerError.unknownProperty(object: errorName, property: property)
        }
        return spec
    }

    /// Sets a property from a Swift value, typed by the property's GParamSpec.
    public func set(_ property: String, _ value: any PropertyValueConvertible) throws {
        try assign(property) { gvalue, spec in
            try GValueBridge.store(value.propertyValue, into: &gvalue, spec: spec)
        } describing: { value.propertyValue }
    }

    /// Sets a property from its textual form, as gst-launch-1.0 would (`"zerolatency"`, `"30/1"`).
    public func set(_ property: String, fromString text: String) throws {
        try assign(property) { gvalue, spec in
            try GValueBridge.deserialize(text, into: &gvalue, spec: spec, expected: GValueBridge.typeName(pc_param_spec_value_type(spec)))
        } describing: { .string(text) }
    }

    /// Sets several properties in order.
    public func set(_ properties: KeyValuePairs<String, any PropertyValueConvertible>) throws {
        for (property, value) in properties { try set(property, value) }
    }

    private func assign(
        _ property: String,
        fill: (inout GValue, UnsafeMutablePointer<GParamSpec>) throws -> Void,
        describing value: () -> PropertyValue
    ) throws {
        let spec = try paramSpec(property)
        // GLib only warns and ignores the value when a construct-only property is set afterwards.
        let flags = spec.pointee.flags.rawValue
        guard flags & G_PARAM_WRITABLE.rawValue != 0, flags & G_PARAM_CONSTRUCT_ONLY.rawValue == 0 else {
            throw GStreamerError.readOnlyProperty(object: errorName, property: property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, pc_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        do {
            try fill(&gvalue, spec)
        } catch let error as GValueBridge.Mismatch {
            let given = value()
            if error.invalidValue {
                throw GStreamerError.invalidPropertyValue(object: errorName, property: property, expected: error.expected, value: given.description)
            }
            throw GStreamerError.wrongPropertyType(object: errorName, property: property, expected: error.expected, given: given.typeName)
        }
        g_object_set_property(pc_object(raw), property, &gvalue)
    }

    /// Reads a property.
    public func property(_ property: String) throws -> PropertyValue {
        let spec = try paramSpec(property)
        // GLib would only warn and hand back the type's default value.
        guard spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0 else {
            throw GStreamerError.writeOnlyProperty(object: errorName, property: property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, pc_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        g_object_get_property(pc_object(raw), property, &gvalue)
        return GValueBridge.load(&gvalue)
    }

    /// Reads a property that holds a structure (a sink's `stats`); nil when it holds none.
    public func structureProperty(_ property: String) throws -> Structure? {
        let spec = try paramSpec(property)
        guard spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0 else {
            throw GStreamerError.writeOnlyProperty(object: errorName, property: property)
        }
        guard pc_param_spec_value_type(spec) == pc_type_structure() else {
            throw GStreamerError.wrongPropertyType(object: errorName, property: property, expected: "a structure",
                                                   given: String(cString: g_type_name(pc_param_spec_value_type(spec))))
        }
        var gvalue = GValue()
        g_value_init(&gvalue, pc_type_structure())
        defer { g_value_unset(&gvalue) }
        g_object_get_property(pc_object(raw), property, &gvalue)
        return gst_value_get_structure(&gvalue).map(Structure.init)
    }

    /// Whether the object has a property of this name.
    public func hasProperty(_ property: String) -> Bool {
        g_object_class_find_property(pc_object_get_class(raw), property) != nil
    }

    // MARK: lifetime

    /// Calls `body` when the underlying GObject is finalized, whoever held the last reference.
    /// Leak tests use it to prove that a torn-down pipeline really freed its elements.
    public func onFinalize(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(FinalizeBox(body)).toOpaque()
        g_object_weak_ref(pc_object(raw), { data, _ in
            guard let data else { return }
            let box = Unmanaged<FinalizeBox>.fromOpaque(data).takeRetainedValue()
            box.body()
        }, box)
    }
}

private final class FinalizeBox {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
