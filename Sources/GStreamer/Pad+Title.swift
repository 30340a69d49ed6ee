import CGStreamer

extension Pad {
    /// Names the stream leaving this pad: a tag event sent just before its first buffer, which a muxer
    /// writes as the track's name.
    public func announceTitle(_ title: String) {
        let box = Unmanaged.passRetained(TitleBox(title)).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, _, data in
            guard let pad, let data else { return GST_PAD_PROBE_REMOVE }
            let title = Unmanaged<TitleBox>.fromOpaque(data).takeUnretainedValue().title
            _ = gst_pad_push_event(pad, pc_event_new_stream_title(title))
            return GST_PAD_PROBE_REMOVE
        }, box) { data in
            if let data { Unmanaged<TitleBox>.fromOpaque(data).release() }
        }
    }
}

private final class TitleBox {
    let title: String
    init(_ title: String) { self.title = title }
}
