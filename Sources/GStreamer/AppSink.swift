import CGStreamer
import Foundation

/// Where a pipeline hands buffers to Swift. Samples are delivered from GStreamer's streaming thread,
/// which never waits for Swift: closures are called directly (and must be quick), AsyncStreams buffer
/// the newest samples and drop older ones if the consumer falls behind, like a camera's
/// "discard late frames".
public final class AppSink: Element, @unchecked Sendable {
    var appSink: UnsafeMutablePointer<GstAppSink> { pc_app_sink(raw) }

    /// An appsink that accepts `caps`, keeps at most `maxBuffers` queued and drops the oldest beyond that.
    public convenience init(name: String? = nil, caps: Caps? = nil, maxBuffers: Int = 4, drop: Bool = true, sync: Bool = false) throws {
        self.init(try Element.create("appsink", name: name), .sinkFloating)
        if let caps { try set("caps", caps) }
        try set(["max-buffers": UInt32(maxBuffers), "drop": drop, "sync": sync])
    }

    /// Calls `body` with every sample on the streaming thread, and `ended` at end-of-stream.
    @discardableResult
    public func onSample(_ body: @escaping @Sendable (Sample) -> Void, ended: @escaping @Sendable () -> Void = {}) -> AppSinkSubscription {
        let fanout = AppSinkFanout.attached(to: self)
        let id = fanout.add(deliver: body, finish: ended)
        return AppSinkSubscription { fanout.remove(id) }
    }

    /// Every sample from now on; ends at end-of-stream.
    public func samples(bufferingNewest limit: Int = 16) -> AsyncStream<Sample> {
        let (stream, continuation) = AsyncStream.makeStream(of: Sample.self, bufferingPolicy: .bufferingNewest(limit))
        let fanout = AppSinkFanout.attached(to: self)
        let id = fanout.add(deliver: { continuation.yield($0) }, finish: { continuation.finish() })
        continuation.onTermination = { _ in fanout.remove(id) }
        return stream
    }
}

/// Stops a closure subscription to an appsink.
public final class AppSinkSubscription: Sendable {
    private let cancelAction: @Sendable () -> Void
    init(_ cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }
    public func cancel() { cancelAction() }
}

/// One per appsink, stored on the GObject itself so every wrapper of the same appsink shares it and
/// the callbacks are installed once; freed together with the appsink.
final class AppSinkFanout: @unchecked Sendable {
    private struct Consumer {
        let deliver: @Sendable (Sample) -> Void
        let finish: @Sendable () -> Void
    }

    private static let key = "pipcam-appsink-fanout"
    private static let creation = NSLock()
    private let lock = NSLock()
    private var consumers: [Int: Consumer] = [:]
    private var nextID = 0

    static func attached(to sink: AppSink) -> AppSinkFanout {
        creation.lock()
        defer { creation.unlock() }
        let object = pc_object(sink.raw)
        if let existing = g_object_get_data(object, key) {
            return Unmanaged<AppSinkFanout>.fromOpaque(existing).takeUnretainedValue()
        }
        let fanout = AppSinkFanout()
        let pointer = Unmanaged.passRetained(fanout).toOpaque()
        g_object_set_data_full(object, key, pointer) { data in
            if let data { Unmanaged<AppSinkFanout>.fromOpaque(data).release() }
        }
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, data in
            guard let sink, let data else { return GST_FLOW_ERROR }
            guard let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_EOS }
            Unmanaged<AppSinkFanout>.fromOpaque(data).takeUnretainedValue().deliver(Sample(adopting: sample))
            return GST_FLOW_OK
        }
        callbacks.eos = { _, data in
            guard let data else { return }
            Unmanaged<AppSinkFanout>.fromOpaque(data).takeUnretainedValue().finishAll()
        }
        gst_app_sink_set_callbacks(sink.appSink, &callbacks, pointer, nil)
        return fanout
    }

    func add(deliver: @escaping @Sendable (Sample) -> Void, finish: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        consumers[nextID] = Consumer(deliver: deliver, finish: finish)
        return nextID
    }

    func remove(_ id: Int) {
        lock.lock()
        consumers[id] = nil
        lock.unlock()
    }

    private func snapshot() -> [Consumer] {
        lock.lock()
        defer { lock.unlock() }
        return Array(consumers.values)
    }

    private func deliver(_ sample: Sample) {
        for consumer in snapshot() { consumer.deliver(sample) }
    }

    private func finishAll() {
        for consumer in snapshot() { consumer.finish() }
    }
}
