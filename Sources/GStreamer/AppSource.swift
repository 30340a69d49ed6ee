import CGStreamer
import CPipcamGst

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

extension AppSource {
    /// What a feeder may do while it is asked for data: valid only inside the call.
    public struct Feed {
        let appSource: UnsafeMutablePointer<GstAppSrc>

        /// Pushes `count` bytes at `bytes` as one buffer, without copying them. `owner` is kept alive
        /// until GStreamer lets go of the buffer's memory, which may be long after the push.
        /// Returns false once the source is flushing or stopped: nothing more is wanted.
        @discardableResult
        public func push(_ bytes: UnsafeRawPointer, count: Int, presentationTime: Duration, duration: Duration,
                         keepingAlive owner: AnyObject) -> Bool {
            let retained = Unmanaged.passRetained(owner).toOpaque()
            let buffer = pc_buffer_wrapping(bytes, gsize(count), presentationTime.nanoseconds, duration.nanoseconds, retained) {
                if let owner = $0 { Unmanaged<AnyObject>.fromOpaque(owner).release() }
            }
            return gst_app_src_push_buffer(appSource, buffer) == GST_FLOW_OK
        }

        /// No more buffers: downstream finishes what it has and posts end-of-stream.
        public func endOfStream() {
            gst_app_src_end_of_stream(appSource)
        }
    }

    /// Calls `feeder` on the source's own streaming thread each time its queue runs dry, so a feeder
    /// that pushes one buffer per call never runs ahead of the pipeline and needs no thread of its own.
    /// The feeder is kept as long as the element is.
    public func feed(_ feeder: @escaping @Sendable (Feed) -> Void) {
        var callbacks = GstAppSrcCallbacks()
        callbacks.need_data = { source, _, data in
            guard let source, let data else { return }
            Unmanaged<FeederBox>.fromOpaque(data).takeUnretainedValue().feeder(Feed(appSource: source))
        }
        let box = Unmanaged.passRetained(FeederBox(feeder)).toOpaque()
        gst_app_src_set_callbacks(appSource, &callbacks, box) { data in
            if let data { Unmanaged<FeederBox>.fromOpaque(data).release() }
        }
    }
}

private final class FeederBox {
    let feeder: @Sendable (AppSource.Feed) -> Void
    init(_ feeder: @escaping @Sendable (AppSource.Feed) -> Void) { self.feeder = feeder }
}
