import CGStreamer
import CScaledJPEG
import Foundation

/// Process-wide GStreamer setup. Every wrapper type calls `Gst.ensureInitialized()` itself,
/// so callers only need `initialize()` when they want to handle a failure early.
public enum Gst {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var initialized = false

    /// Initializes GStreamer once; later calls return at once.
    public static func initialize() throws {
        lock.lock()
        defer { lock.unlock() }
        if initialized { return }
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            throw GStreamerError.initializationFailed(message)
        }
        // pipcam's own element, for this process: present wherever pipcam runs, so never missing.
        guard pc_scaled_jpeg_decoder_register() != 0 else { throw GStreamerError.initializationFailed("the scaled JPEG decoder could not be registered") }
        initialized = true
    }

    /// Used by wrapper types: initialization failing means the GStreamer installation is broken,
    /// which no caller can recover from.
    static func ensureInitialized() {
        do { try initialize() } catch { fatalError("\(error)") }
    }

    /// The version of the GStreamer library in use, e.g. "GStreamer 1.22.0". Needs no initialization,
    /// so asking for it does not load the plugin registry.
    public static var version: String {
        guard let text = gst_version_string() else { return "GStreamer (unknown version)" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// (major, minor, micro) of the GStreamer library in use.
    public static var versionNumbers: (major: Int, minor: Int, micro: Int) {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return (Int(major), Int(minor), Int(micro))
    }

    /// Whether an element factory of this name is installed (a plugin may be missing).
    public static func hasElement(_ factory: String) -> Bool {
        ensureInitialized()
        guard let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }

    /// The file of the plugin that provides an element factory, as the registry knows it (without loading
    /// it), or nil when no such factory is installed: which package ships it is a question for the system's
    /// package manager.
    public static func pluginFile(ofElement factory: String) -> String? {
        ensureInitialized()
        guard let found = gst_element_factory_find(factory) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(found)) }
        guard let plugin = gst_plugin_feature_get_plugin(pc_plugin_feature(UnsafeMutableRawPointer(found))) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
        return gst_plugin_get_filename(plugin).map { String(cString: $0) }
    }
}

/// Takes ownership of a `gchar*` returned with transfer-full.
func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

extension Duration {
    /// Nanoseconds, the unit of GstClockTime.
    var nanoseconds: GstClockTime {
        let (seconds, attoseconds) = components
        return GstClockTime(max(0, seconds)) * 1_000_000_000 + GstClockTime(max(0, attoseconds) / 1_000_000_000)
    }

    /// Nanoseconds, negative too: a shift in time (a pad's offset), not a clock's reading.
    var signedNanoseconds: gint64 {
        let (seconds, attoseconds) = components
        return gint64(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// A Duration from a GstClockTime, or nil for GST_CLOCK_TIME_NONE.
    static func clockTime(_ value: GstClockTime) -> Duration? {
        value == pc_clock_time_none() ? nil : .nanoseconds(Int64(value))
    }
}
