import CGStreamer

/// Where Swift hands buffers to a pipeline: a still to encode as a photo, or encoded frames kept in
/// memory to write out as a clip.
public final class AppSource: Element, @unchecked Sendable {
    var appSource: UnsafeMutablePointer<GstAppSrc> { pc_app_src(raw) }

    /// An appsrc producing `caps`, timed in nanoseconds.
    public convenience init(name: String? = nil, caps: Caps) throws {
        self.init(try Element.create("appsrc", name: name), .sinkFloating)
        try set("caps", caps)
        try set("format", fromString: "time")
    }

    /// Pushes a sample's buffer as it is (shared, not copied).
    public func push(_ sample: Sample) throws {
        let result = gst_app_src_push_sample(appSource, sample.raw)
        guard result == GST_FLOW_OK else { throw GStreamerError.pushFailed(element: name, flow: Int(result.rawValue)) }
    }

    /// Pushes a sample's buffer with its times moved back by `origin` (running time), so a clip cut from
    /// a running stream starts at zero. The buffer's memory is shared, not copied.
    public func push(_ sample: Sample, startingAt origin: Duration) throws {
        let nanoseconds = origin.nanoseconds
        let result = gst_app_src_push_buffer(appSource, pc_buffer_retimed(sample.raw, nanoseconds))
        guard result == GST_FLOW_OK else { throw GStreamerError.pushFailed(element: name, flow: Int(result.rawValue)) }
    }

    /// No more buffers: downstream finishes what it has and posts end-of-stream.
    public func endOfStream() {
        gst_app_src_end_of_stream(appSource)
    }
}
