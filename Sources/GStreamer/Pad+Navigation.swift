import CGStreamer

extension Pad {
    /// Calls `body` with the name of each key pressed in the window of a video sink ("s", "space",
    /// "Left"), on the thread that handles the window's events. Put it on the sink's sink pad: the sink
    /// sends key presses upstream as navigation events, which go on to the elements above unchanged.
    @discardableResult
    public func addKeyPressProbe(_ body: @escaping @Sendable (String) -> Void) -> UInt {
        let box = Unmanaged.passRetained(KeyProbeBox(body)).toOpaque()
        let id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, data in
            guard let info, let data, let key = pc_probe_info_key_press(info) else { return GST_PAD_PROBE_OK }
            Unmanaged<KeyProbeBox>.fromOpaque(data).takeUnretainedValue().body(String(cString: key))
            return GST_PAD_PROBE_OK
        }, box) { data in
            if let data { Unmanaged<KeyProbeBox>.fromOpaque(data).release() }
        }
        return UInt(id)
    }
}

private final class KeyProbeBox {
    let body: @Sendable (String) -> Void
    init(_ body: @escaping @Sendable (String) -> Void) { self.body = body }
}
