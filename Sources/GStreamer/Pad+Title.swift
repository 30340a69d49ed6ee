import CGStreamer
import CPipcamGst

extension Pad {
    /// Names the stream leaving this pad: a tag event sent just before its first buffer, which a muxer
    /// writes as the track's name, and the title added to every later tag event of the stream (a muxer
    /// made anew for each part of a recording reads only the last).
    public func announceTitle(_ title: String) {
        pc_pad_keep_title(pad, title)
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
