import CGStreamer

extension Pad {
    /// How much later what passes this pad is placed in running time (negative: earlier). Set through
    /// GStreamer's call, not the pad's `offset` property, which takes no negative value.
    public var timeOffset: Duration {
        get { .nanoseconds(Int64(gst_pad_get_offset(pad))) }
        set {
            let (seconds, attoseconds) = newValue.components
            gst_pad_set_offset(pad, gint64(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        }
    }
}
