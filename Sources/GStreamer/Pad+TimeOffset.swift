import CGStreamer

extension Pad {
    /// How much later what passes this pad is placed in running time (negative: earlier). Set through
    /// GStreamer's call, not the pad's `offset` property, which takes no negative value.
    public var timeOffset: Duration {
        get { .nanoseconds(Int64(gst_pad_get_offset(pad))) }
        set { gst_pad_set_offset(pad, newValue.signedNanoseconds) }
    }
}
