import CaptureGraph
import CaptureModel

extension PreviewOutput {
    /// A preview window on a sink this machine's display can show, or an error saying why there is no
    /// window to show.
    public static func onThisDisplay(showsOverlay: Bool) throws -> PreviewOutput {
        PreviewOutput(sink: try PreviewSink.find(), showsOverlay: showsOverlay)
    }
}
