import CGStreamer

extension Pad {
    /// Asks the element upstream of this pad not to make pictures timed (running time) before
    /// `runningTime`: a video aggregator then skips composing them, the work a throttled rate saves.
    /// Call it on a sink pad; the request travels to its peer. Returns whether an element took it.
    @discardableResult
    public func requestNoPicturesBefore(_ runningTime: Duration, now: Duration) -> Bool {
        let ahead = GstClockTimeDiff(Int64(runningTime.nanoseconds) - Int64(now.nanoseconds))
        guard let event = gst_event_new_qos(GST_QOS_TYPE_THROTTLE, 1.0, ahead, now.nanoseconds) else { return false }
        return gst_pad_push_event(pad, event) != 0
    }

    /// Stops quality-of-service requests from going further upstream than this pad. An aggregator hands
    /// them on to every input; its inputs' filters would then drop camera frames it still needs.
    @discardableResult
    public func stopUpstreamQualityOfService() -> UInt {
        dropEvents(GST_EVENT_QOS, going: GST_PAD_PROBE_TYPE_EVENT_UPSTREAM)
    }
}
