import CGStreamer

extension Element {
    /// Calls `body` with the source element a `uridecodebin` makes for its URI (rtspsrc, souphttpsrc,
    /// srtsrc), before it opens anything: the moment to give it what the URI cannot say (a password, a
    /// latency). Called on the thread that changes the bin's state.
    public func onSourceSetup(_ body: @escaping @Sendable (Element) -> Void) {
        let box = Unmanaged.passRetained(SourceSetupBox(body)).toOpaque()
        let handler: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = { _, source, data in
            guard let source, let data else { return }
            Unmanaged<SourceSetupBox>.fromOpaque(data).takeUnretainedValue().body(Element.wrap(source, .retain))
        }
        _ = pc_signal_connect(raw, "source-setup", unsafeBitCast(handler, to: GCallback.self), box) { data, _ in
            if let data { Unmanaged<SourceSetupBox>.fromOpaque(data).release() }
        }
    }
}

private final class SourceSetupBox {
    let body: @Sendable (Element) -> Void
    init(_ body: @escaping @Sendable (Element) -> Void) { self.body = body }
}
