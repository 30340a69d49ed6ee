import CGStreamer
import Locking
import Foundation

/// A GStreamer element. Made from a factory name with its properties in one expression:
/// `try Element.make("x264enc", name: "encoder", properties: ["tune": "zerolatency"])`.
public class Element: Object, @unchecked Sendable {
    var element: UnsafeMutablePointer<GstElement> { pc_element(raw) }

    /// The wrapper class matching the object's real type, so a bin found by name comes back as a Bin.
    static func wrap(_ pointer: UnsafeMutableRawPointer, _ ownership: Ownership) -> Element {
        if pc_is_app_sink(pointer) != 0 { return AppSink(pointer, ownership) }
        if pc_is_app_src(pointer) != 0 { return AppSource(pointer, ownership) }
        if pc_is_bin(pointer) != 0 { return Bin(pointer, ownership) }
        return Element(pointer, ownership)
    }

    /// Creates an element from a factory and sets its properties in order.
    public static func make(
        _ factory: String, name: String? = nil,
        properties: KeyValuePairs<String, any PropertyValueConvertible> = [:]
    ) throws -> Element {
        let element = wrap(try create(factory, name: name), .sinkFloating)
        try element.set(properties)
        return element
    }

    static func create(_ factory: String, name: String?) throws -> UnsafeMutablePointer<GstElement> {
        Gst.ensureInitialized()
        guard let made = gst_element_factory_make(factory, name) else {
            throw Gst.hasElement(factory)
                ? GStreamerError.elementCreationFailed(factory: factory)
                : GStreamerError.missingElement(factory: factory)
        }
        return made
    }

    /// The factory this element was made by, e.g. "compositor".
    public var factoryName: String {
        guard let factory = gst_element_get_factory(element) else { return typeName }
        return takeString(gst_object_get_name(pc_gst_object(UnsafeMutableRawPointer(factory)))) ?? typeName
    }

    // MARK: pads

    /// An always-present pad such as "src" or "sink".
    public func staticPad(_ name: String) throws -> Pad {
        guard let pad = gst_element_get_static_pad(element, name) else {
            throw GStreamerError.noSuchPad(element: self.name, pad: name)
        }
        return Pad(pad, .adopt)
    }

    /// A new pad from a request template such as "sink_%u". Release it with `releaseRequestPad`.
    public func requestPad(_ template: String) throws -> Pad {
        guard let pad = gst_element_request_pad_simple(element, template) else {
            throw GStreamerError.noSuchPad(element: name, pad: template)
        }
        return Pad(pad, .adopt)
    }

    public func releaseRequestPad(_ pad: Pad) {
        gst_element_release_request_pad(element, pad.pad)
    }

    /// All pads the element has now.
    public var pads: [Pad] {
        var result: [Pad] = []
        let iterator = gst_element_iterate_pads(element)
        defer { gst_iterator_free(iterator) }
        var item = GValue()
        while gst_iterator_next(iterator, &item) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&item) { result.append(Pad(object, .retain)) }
            g_value_reset(&item)
        }
        g_value_unset(&item)
        return result
    }

    // MARK: linking

    /// Links this element to the next, letting GStreamer pick compatible pads unless named.
    /// Elements in different pipelines are refused before GStreamer is asked, which would print a warning.
    public func link(_ next: Element, sourcePad: String? = nil, sinkPad: String? = nil) throws {
        let linked = topLevelBin == next.topLevelBin && gst_element_link_pads(element, sourcePad, next.element, sinkPad) != 0
        if !linked { throw linkError(to: next, sourcePad: sourcePad, sinkPad: sinkPad, filter: nil) }
    }

    /// Links through a caps filter: only formats in `caps` may flow.
    public func link(_ next: Element, filter caps: Caps) throws {
        let linked = topLevelBin == next.topLevelBin && gst_element_link_filtered(element, next.element, caps.raw) != 0
        if !linked { throw linkError(to: next, sourcePad: nil, sinkPad: nil, filter: caps) }
    }

    /// Works out which pads were involved and why a link failed, since GStreamer only says "no".
    private func linkError(to next: Element, sourcePad: String?, sinkPad: String?, filter: Caps?) -> GStreamerError {
        let source = sourcePad.flatMap { try? staticPad($0) } ?? pads.first { $0.direction == .source && !$0.isLinked }
        let sink = sinkPad.flatMap { try? next.staticPad($0) } ?? next.pads.first { $0.direction == .sink && !$0.isLinked }
        let sourceName = sourcePad ?? source?.name ?? "src"
        let sinkName = sinkPad ?? sink?.name ?? "sink"
        let reason: String
        if topLevelBin != next.topLevelBin {
            reason = "the elements are not in the same bin"
        } else if let sourcePad, !hasPad(named: sourcePad) {
            reason = "'\(name)' has no pad '\(sourcePad)'"
        } else if let sinkPad, !next.hasPad(named: sinkPad) {
            reason = "'\(next.name)' has no pad '\(sinkPad)'"
        } else if source == nil {
            reason = "'\(name)' has no free source pad"
        } else if sink == nil && !next.hasRequestSinkTemplate {
            reason = "'\(next.name)' has no free sink pad"
        } else if let source, let sink {
            var offered = source.queryCaps()
            if let filter { offered = offered.intersection(filter) }
            let accepted = sink.queryCaps()
            reason = offered.intersects(accepted)
                ? "the pads refused the link"
                : "no common format (\(offered) vs \(accepted))"
        } else {
            reason = "no compatible pads"
        }
        return .linkFailed(source: name, sourcePad: sourceName, sink: next.name, sinkPad: sinkName, reason: reason)
    }

    /// The outermost bin holding this element, nil if it has none. Elements link across nested bins
    /// (GStreamer adds ghost pads) as long as they share it, and elements in no bin link freely.
    /// Only its identity is used: the child chain keeps it alive meanwhile.
    private var topLevelBin: UnsafeMutablePointer<GstObject>? {
        var top: UnsafeMutablePointer<GstObject>?
        var parent = gst_object_get_parent(raw)
        while let current = parent {
            top.map { gst_object_unref($0) }
            top = current
            parent = gst_object_get_parent(current)
        }
        top.map { gst_object_unref($0) }
        return top
    }

    /// Whether `padName` is an existing pad or one of the element's templates, such as "sink_%u".
    private func hasPad(named padName: String) -> Bool {
        if let pad = gst_element_get_static_pad(element, padName) {
            gst_object_unref(pad)
            return true
        }
        return gst_element_class_get_pad_template(pc_element_get_class(element), padName) != nil
    }

    private var hasRequestSinkTemplate: Bool {
        guard let factory = gst_element_get_factory(element) else { return false }
        var templates = gst_element_factory_get_static_pad_templates(factory)
        while let node = templates {
            if let template = node.pointee.data?.assumingMemoryBound(to: GstStaticPadTemplate.self),
               template.pointee.direction == GST_PAD_SINK, template.pointee.presence == GST_PAD_REQUEST {
                return true
            }
            templates = UnsafePointer(node.pointee.next)
        }
        return false
    }

    // MARK: state

    /// Requests a state; success kinds are returned, failure is thrown.
    @discardableResult
    public func setState(_ state: State) throws -> StateChange {
        guard let result = StateChange(gst_element_set_state(element, state.raw)) else {
            throw GStreamerError.stateChangeFailed(element: name, target: state.description)
        }
        return result
    }

    /// The current state, waiting up to `timeout` for a pending asynchronous change to finish.
    /// Blocks the calling thread; from async code use `reachState(_:timeout:)`.
    public func waitForState(timeout: Duration) throws -> State {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        switch gst_element_get_state(element, &current, &pending, timeout.nanoseconds) {
        case GST_STATE_CHANGE_FAILURE:
            throw GStreamerError.stateChangeFailed(element: name, target: State(pending).description)
        case GST_STATE_CHANGE_ASYNC:
            throw GStreamerError.timeout("waiting for '\(name)' to reach \(State(pending))")
        default:
            return State(current)
        }
    }

    /// Sets a state and waits until it is reached, on a thread of its own so that Swift's
    /// cooperative pool is never blocked.
    @discardableResult
    public func reachState(_ state: State, timeout: Duration = .seconds(10)) async throws -> State {
        try setState(state)
        return try await Blocking.run { try self.waitForState(timeout: timeout) }
    }

    public var currentState: State {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        gst_element_get_state(element, &current, &pending, 0)
        return State(current)
    }

    // MARK: events and queries

    /// Sends end-of-stream into the element (for a pipeline: into every source).
    @discardableResult
    public func sendEndOfStream() -> Bool {
        gst_element_send_event(element, gst_event_new_eos()) != 0
    }

    /// A sink that throws away a stream no one records (a camera's sound) stops counting as a sink: a bin
    /// posts end-of-stream once each of its sinks has, and this one, fed by a source whose end is held,
    /// would never. Nor is it asked for latency; it must not wait on the clock (sync false). Call it
    /// before the sink is added to a bin, which counts its sinks as they come.
    public func leaveOutOfSinks() {
        element.pointee.object.flags &= ~GST_ELEMENT_FLAG_SINK.rawValue
    }

    /// The current position in the stream, if known.
    public var position: Duration? {
        var value: gint64 = 0
        guard gst_element_query_position(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return .nanoseconds(value)
    }

    // MARK: signals

    /// Calls `body` for each pad the element creates while running (demuxers, decodebin, uridecodebin).
    public func onPadAdded(_ body: @escaping @Sendable (Pad) -> Void) {
        let box = Unmanaged.passRetained(PadAddedBox(body)).toOpaque()
        let handler: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = { _, pad, data in
            guard let pad, let data else { return }
            Unmanaged<PadAddedBox>.fromOpaque(data).takeUnretainedValue().body(Pad(pad, .retain))
        }
        _ = pc_signal_connect(raw, "pad-added", unsafeBitCast(handler, to: GCallback.self), box) { data, _ in
            if let data { Unmanaged<PadAddedBox>.fromOpaque(data).release() }
        }
    }
}

private final class PadAddedBox {
    let body: @Sendable (Pad) -> Void
    init(_ body: @escaping @Sendable (Pad) -> Void) { self.body = body }
}
