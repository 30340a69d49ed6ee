import CaptureModel
import Foundation
import GStreamer

/// Finds a video sink that can open a window on this machine's display.
public enum PreviewSink {
    /// On X: plain X images work on any X server, a virtual one too, and tell whether the display answers;
    /// XVideo, where the server has it, scales in the server and costs nothing here. Without X: Wayland's
    /// own sink, then OpenGL.
    static let xSink = ElementFactory.ximagesink, xVideoSink = ElementFactory.xvimagesink
    static let waylandSinks: [ElementFactory] = [.waylandsink, .glimagesink]

    /// The sink to use, or an error that says why there is no window to show.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ElementFactory {
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        if let display {
            // The plain sink first: opening a display right after XVideo failed to find a port sometimes
            // fails, which would make a working display look absent.
            guard opens(xSink) else { throw CaptureError.display(.xServerUnreachable(display: display)) }
            return opens(xVideoSink) ? xVideoSink : xSink
        }
        guard let wayland else {
            throw CaptureError.display(.noDisplay)
        }
        let missing = ElementFactory.missing(among: waylandSinks)
        if missing.count == waylandSinks.count { throw CaptureError.missingElements(missing) }
        guard let sink = waylandSinks.first(where: opens) else { throw CaptureError.display(.waylandUnreachable(display: wayland)) }
        return sink
    }

    /// Whether the sink opens the display: going to READY connects (and, for XVideo, finds a port),
    /// which is what would fail when the session starts.
    private static func opens(_ factory: ElementFactory) -> Bool {
        guard factory.isInstalled, let sink = try? factory.make() else { return false }
        defer { _ = try? sink.setState(.null) }
        return (try? sink.setState(.ready)) != nil && sink.currentState == .ready
    }
}
