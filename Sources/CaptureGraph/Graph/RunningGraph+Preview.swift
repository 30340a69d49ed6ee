import CaptureModel
import GStreamer

/// What a running graph does for its preview window: passes on its key presses, and shows a line of text.
extension RunningGraph {
    func watchKeys(of preview: PreviewOutput) throws {
        guard let sink = plan.previewSink.flatMap({ pipeline[$0] }) else { return }
        let keys = preview.keys
        try sink.staticPad("sink").addKeyPressProbe { keys.press($0) }
    }

    /// Sets the preview's overlay text; textoverlay takes a new text on the next picture.
    package func setPreviewOverlay(_ text: String) throws {
        guard let overlay = plan.previewOverlay.flatMap({ pipeline[$0] }) else { return }
        try overlay.set("text", DrawnText.markup(text))
    }
}
