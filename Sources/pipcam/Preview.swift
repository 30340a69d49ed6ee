import ArgumentParser
import Capture
import Foundation

/// `pipcam preview`: the cameras in a window, composed as the layout says, with nothing recorded.
struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the cameras in a window, as they would be recorded, and change the layout live.")

    @OptionGroup
    var sessionOptions: SessionOptions

    @OptionGroup(title: "Live control")
    var live: LiveOptions

    @Option(name: .long, help: ArgumentHelp("Take photos (key p, or the photo command) into this folder.", valueName: "folder"))
    var photos: String?

    @OptionGroup(title: "Photos")
    var photo: PhotoOptions

    func run() async throws {
        // With the web page, a machine without a display still previews: on the page alone.
        let window: PreviewOutput?
        do {
            window = try live.previewOutput()
        } catch where live.web != nil {
            window = nil
        }
        // Loaded as for a recording, so the preview shows the cameras as they would be recorded; then the
        // movie file is taken away, before anything runs: the preview composes on its own.
        var configuration = try sessionOptions.configuration(outputPath: nil)
        if let window { configuration.attachPreviewOutput(window) }
        if live.web != nil { configuration.attachPreviewPictures() }
        let photoFolder = try photos.map(PhotoOptions.checkFolder)
        if photoFolder != nil { configuration.attachPhotoOutput(PhotoOutput()) }
        if let movie = configuration.movieFile { configuration.removeOutput(id: movie.id) }
        let session = try CaptureSession(configuration: configuration)

        let controls = try await ControlInputs(session: session, options: live, photoDirectory: photoFolder, photoOptions: photo)
        defer { controls.finish() }
        let stopper = SignalStopper(session: session, notice: "stopping…")
        defer { stopper.cancel() }
        try await session.startRunning()
        let modes = SessionEventPrinter.cameraModes(of: session)
        let web = controls.webURL.map { "; the page at \($0)" } ?? ""
        FileHandle.standardError.write(Data("previewing \(window?.sink.map { "with \($0)" } ?? "on the web page alone") (\(modes))\(web); \(ControlCommand.keyHelp)\n".utf8))

        let outcome = await SessionEventPrinter(making: .preview, controls: controls).run(session)
        if let failure = outcome?.failure { throw CLIError("the preview stopped: \(failure)") }
    }
}
