import CGStreamer

extension Pad {
    /// Places what leaves this pad `earlier` than its time, and asks downstream to wait that much longer
    /// for it: a source whose pictures are stamped when they arrive, though they were seen before.
    public func placeEarlier(by earlier: Duration) {
        pc_pad_place_earlier(pad, GstClockTime(earlier.nanoseconds))
    }
}
