import CGStreamer

extension Element {
    /// splitmuxsink's `format-location`: `path` names each part of a recording as it begins (its index,
    /// from 0). Called on a streaming thread: it must answer at once.
    public func nameParts(_ path: @escaping @Sendable (_ index: Int) -> String) {
        let box = Unmanaged.passRetained(PartPathBox(path)).toOpaque()
        let handler: @convention(c) (UnsafeMutablePointer<GstElement>?, guint, gpointer?) -> UnsafeMutablePointer<gchar>? = { _, index, data in
            guard let data else { return nil }
            return g_strdup(Unmanaged<PartPathBox>.fromOpaque(data).takeUnretainedValue().path(Int(index)))
        }
        _ = pc_signal_connect(raw, "format-location", unsafeBitCast(handler, to: GCallback.self), box) { data, _ in
            if let data { Unmanaged<PartPathBox>.fromOpaque(data).release() }
        }
    }
}

private final class PartPathBox {
    let path: @Sendable (Int) -> String
    init(_ path: @escaping @Sendable (Int) -> String) { self.path = path }
}
