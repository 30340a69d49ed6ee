import CGStreamer
import CPipcamGst

/// A pad: an element's input or output. Request pads (compositor `sink_%u`, audiomixer `sink_%u`)
/// carry the per-input properties (position, size, z-order, alpha, volume, mute), settable while PLAYING.
public final class Pad: Object, @unchecked Sendable {
    var pad: UnsafeMutablePointer<GstPad> { pc_pad(raw) }

    public enum Direction: Sendable { case source, sink, unknown }

    public var direction: Direction {
        switch gst_pad_get_direction(pad) {
        case GST_PAD_SRC: return .source
        case GST_PAD_SINK: return .sink
        default: return .unknown
        }
    }

    public var isLinked: Bool { gst_pad_is_linked(pad) != 0 }

    /// The element this pad belongs to.
    public var parentElement: Element? {
        guard let parent = gst_pad_get_parent_element(pad) else { return nil }
        return Element.wrap(parent, .adopt)
    }

    /// The caps currently flowing, once negotiated.
    public var currentCaps: Caps? {
        gst_pad_get_current_caps(pad).map { Caps(adopting: $0) }
    }

    /// What the pad could accept or produce now (a caps query).
    public func queryCaps(filter: Caps? = nil) -> Caps {
        Caps(adopting: gst_pad_query_caps(pad, filter?.raw))
    }

    /// Links this source pad to a sink pad; the error names both and why they would not link.
    public func link(to sink: Pad) throws {
        let result = gst_pad_link(pad, sink.pad)
        guard result == GST_PAD_LINK_OK else {
            throw GStreamerError.linkFailed(
                source: parentElement?.name ?? "?", sourcePad: name,
                sink: sink.parentElement?.name ?? "?", sinkPad: sink.name,
                reason: Pad.reason(result, source: self, sink: sink))
        }
    }

    public func unlink(from sink: Pad) {
        gst_pad_unlink(pad, sink.pad)
    }

    /// The pad on the other side of a link.
    public var peer: Pad? {
        gst_pad_get_peer(pad).map { Pad($0, .adopt) }
    }

    static func reason(_ result: GstPadLinkReturn, source: Pad, sink: Pad) -> String {
        switch result {
        case GST_PAD_LINK_WRONG_HIERARCHY: return "the elements are not in the same bin"
        case GST_PAD_LINK_WAS_LINKED: return "a pad is already linked"
        case GST_PAD_LINK_WRONG_DIRECTION: return "the pads have the wrong directions"
        case GST_PAD_LINK_NOFORMAT:
            return "no common format (\(source.queryCaps()) vs \(sink.queryCaps()))"
        case GST_PAD_LINK_NOSCHED: return "the pads cannot cooperate in scheduling"
        case GST_PAD_LINK_REFUSED: return "the link was refused"
        default: return "unknown reason"
        }
    }
}

// MARK: probes

/// What a buffer probe decides for the buffer it saw.
public enum ProbeDecision: Sendable {
    /// Let it through.
    case pass
    /// Throw it away (downstream never sees it).
    case drop
    /// Let it through and remove the probe.
    case remove

    var probeReturn: GstPadProbeReturn {
        switch self {
        case .pass: GST_PAD_PROBE_OK
        case .drop: GST_PAD_PROBE_DROP
        case .remove: GST_PAD_PROBE_REMOVE
        }
    }
}

extension Pad {
    /// Calls `body` with each buffer's presentation time, as running time, as it passes this pad, on the
    /// streaming thread (keep it quick). Used to count frames and to cut a recording at an exact time.
    @discardableResult
    public func addBufferProbe(_ body: @escaping @Sendable (_ presentationTime: Duration?) -> ProbeDecision) -> UInt {
        addRawBufferProbe { pad, buffer in body(.clockTime(pc_pad_running_time(pad, pc_buffer_pts(buffer)))) }
    }

    /// Calls `body` with each buffer's presentation time and the time it ends (its presentation time plus
    /// its duration; nil when it has none), both as running times, on the streaming thread. Where a track
    /// ends matters for sound: its last buffer can last longer than the picture that ends with it.
    @discardableResult
    public func addBufferSpanProbe(_ body: @escaping @Sendable (_ presentationTime: Duration?, _ endTime: Duration?) -> ProbeDecision) -> UInt {
        addRawBufferProbe { pad, buffer in
            let start = pc_buffer_pts(buffer), length = pc_buffer_duration(buffer), none = pc_clock_time_none()
            let end = start == none || length == none ? nil : Duration.clockTime(pc_pad_running_time(pad, start + length))
            return body(.clockTime(pc_pad_running_time(pad, start)), end)
        }
    }

    /// Calls `body` for each push of data through this pad, a buffer or a list of them (muxers that
    /// pack packets for the network push lists), on the streaming thread.
    @discardableResult
    public func addDataProbe(_ body: @escaping @Sendable () -> ProbeDecision) -> UInt {
        let box = Unmanaged.passRetained(DataProbeBox(body)).toOpaque()
        let types = GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
        let id = gst_pad_add_probe(pad, types, { _, _, data in
            guard let data else { return GST_PAD_PROBE_OK }
            return Unmanaged<DataProbeBox>.fromOpaque(data).takeUnretainedValue().body().probeReturn
        }, box) { data in
            if let data { Unmanaged<DataProbeBox>.fromOpaque(data).release() }
        }
        return UInt(id)
    }

    /// Calls `body` with each buffer passing this pad, as GStreamer holds it, and the pad.
    @discardableResult
    func addRawBufferProbe(_ body: @escaping @Sendable (UnsafeMutablePointer<GstPad>, UnsafeMutablePointer<GstBuffer>) -> ProbeDecision) -> UInt {
        let box = Unmanaged.passRetained(ProbeBox(body)).toOpaque()
        let id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            guard let pad, let info, let data, let buffer = pc_probe_info_buffer(info) else { return GST_PAD_PROBE_OK }
            return Unmanaged<ProbeBox>.fromOpaque(data).takeUnretainedValue().body(pad, buffer).probeReturn
        }, box) { data in
            if let data { Unmanaged<ProbeBox>.fromOpaque(data).release() }
        }
        return UInt(id)
    }

    /// Drops every event of `type` passing this pad in `direction` (`GST_PAD_PROBE_TYPE_EVENT_UPSTREAM`
    /// or `…_DOWNSTREAM`).
    func dropEvents(_ type: GstEventType, going direction: GstPadProbeType) -> UInt {
        UInt(gst_pad_add_probe(pad, direction, { _, info, type in
            guard let info, pc_probe_info_event_is(info, type) != 0 else { return GST_PAD_PROBE_OK }
            return GST_PAD_PROBE_DROP
        }, pc_event_type_pointer(type), nil))
    }

    public func removeProbe(_ id: UInt) {
        gst_pad_remove_probe(pad, gulong(id))
    }
}

private final class DataProbeBox {
    let body: @Sendable () -> ProbeDecision
    init(_ body: @escaping @Sendable () -> ProbeDecision) { self.body = body }
}

private final class ProbeBox {
    let body: @Sendable (UnsafeMutablePointer<GstPad>, UnsafeMutablePointer<GstBuffer>) -> ProbeDecision
    init(_ body: @escaping @Sendable (UnsafeMutablePointer<GstPad>, UnsafeMutablePointer<GstBuffer>) -> ProbeDecision) { self.body = body }
}

extension Pad {
    /// Pushes end-of-stream into this pad. Sent to the sink pad after a failed source, it lets the rest
    /// of the graph finish cleanly even though the source itself can no longer send anything.
    @discardableResult
    public func sendEndOfStream() -> Bool {
        gst_pad_send_event(pad, gst_event_new_eos()) != 0
    }
}
