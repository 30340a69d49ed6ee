import GStreamer

/// What a running graph does for its preview window: passes on its key presses, and shows a line of text.
extension RunningGraph {
    func watchKeys(of preview: PreviewOutput) throws {
        guard let name = plan.previewSink, let sink = pipeline.element(named: name) else { return }
        let keys = preview.keys
        try sink.staticPad("sink").addKeyPressProbe { keys.press($0) }
    }

    /// Sets the preview's overlay text; textoverlay takes a new text on the next picture.
    func setPreviewOverlay(_ text: String) throws {
        guard let name = plan.previewOverlay, let overlay = pipeline.element(named: name) else { return }
        try overlay.set("text", text)
    }
}
