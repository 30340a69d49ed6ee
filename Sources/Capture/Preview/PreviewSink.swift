import Foundation
import GStreamer

/// Finds a video sink that can open a window on this machine's display.
public enum PreviewSink {
    /// In order of preference: XVideo scales in the display server and costs nothing here; plain X
    /// works on any X server (a virtual one too); OpenGL and Wayland where there is no X.
    static let candidates = ["xvimagesink", "ximagesink", "glimagesink", "waylandsink"]

    /// The first sink that opens the display, or an error that says why there is no window to show.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        guard display != nil || wayland != nil else {
            throw ConfigurationError("no display to show a preview on: DISPLAY and WAYLAND_DISPLAY are not set")
        }
        // Going to READY opens the display (and, for XVideo, finds a port): what would fail when starting.
        for factory in candidates where Gst.hasElement(factory) {
            guard let sink = try? Element.make(factory) else { continue }
            let opened = (try? sink.setState(.ready)) != nil && sink.currentState == .ready
            _ = try? sink.setState(.null)
            if opened { return factory }
        }
        throw ConfigurationError("cannot open the display \(display ?? wayland!) to show a preview (is the display server running?)")
    }
}
