import ArgumentParser
import Capture
import WebRemote

/// Live control and the preview's overlay, shared by `pipcam preview` and `pipcam record`.
struct LiveOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Take commands as JSON lines on this Unix socket, one answer line each (swap, corner, layout, camera, mute, photo, stop, status, control).", valueName: "path"))
    var control: String?

    @Option(name: .long, help: ArgumentHelp("Serve a page to watch and steer it, with its API and metrics, at this address (127.0.0.1:8080; off this machine a token is asked for).", valueName: "host:port"))
    var web: String?

    @Flag(name: .customLong("no-overlay"), help: "Show the preview without its line of frame rates, pressure and REC mark.")
    var noOverlay = false
}

extension LiveOptions {
    /// `--web`'s address, checked before anything opens.
    func webAddress() throws -> WebAddress? {
        do {
            return try web.map(WebAddress.init)
        } catch {
            throw CLIError("--web: \(error)")
        }
    }

    /// The preview window, on a sink this machine's display can show; one line of error when there is none.
    func previewOutput() throws -> PreviewOutput {
        try PreviewOutput.onThisDisplay(showsOverlay: !noOverlay)
    }
}
