import ArgumentParser
import Capture

/// Live control and the preview's overlay, shared by `pipcam preview` and `pipcam record`.
struct LiveOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Take commands as JSON lines on this Unix socket, one answer line each (swap, corner, layout, camera, mute, photo, stop, status, control).", valueName: "path"))
    var control: String?

    @Flag(name: .customLong("no-overlay"), help: "Show the preview without its line of frame rates, pressure and REC mark.")
    var noOverlay = false
}

extension LiveOptions {
    /// The preview window, on a sink this machine's display can show; one line of error when there is none.
    func previewOutput() throws -> PreviewOutput {
        try PreviewOutput.onThisDisplay(showsOverlay: !noOverlay)
    }
}
