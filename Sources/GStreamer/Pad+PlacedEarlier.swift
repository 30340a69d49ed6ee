import CGStreamer
import CPipcamGst

extension Pad {
    /// Places what leaves this pad `earlier` than its time: a source whose pictures are stamped when they
    /// arrive, though they were seen before. The aggregators downstream must wait that much longer.
    public func placeEarlier(by earlier: Duration) {
        pc_pad_place_earlier(pad, GstClockTime(earlier.nanoseconds))
    }
}
