import CGStreamer

extension Element {
    /// Calls `body` each time a viewer connects to a listening SRT sink (its "caller-added" signal), on
    /// the sink's own thread.
    public func onCallerAdded(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(CallerAddedBox(body)).toOpaque()
        let handler: @convention(c) (UnsafeMutablePointer<GstElement>?, Int32, gpointer?, gpointer?) -> Void = { _, _, _, data in
            guard let data else { return }
            Unmanaged<CallerAddedBox>.fromOpaque(data).takeUnretainedValue().body()
        }
        _ = pc_signal_connect(raw, "caller-added", unsafeBitCast(handler, to: GCallback.self), box) { data, _ in
            if let data { Unmanaged<CallerAddedBox>.fromOpaque(data).release() }
        }
    }
}

private final class CallerAddedBox {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
