import CGStreamer

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
