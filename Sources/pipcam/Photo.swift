import ArgumentParser
import Capture
import Foundation

/// `pipcam photo OUTDIR`: starts the cameras, takes one capture (a still per camera at its full size,
/// the composed picture, thumbnails and a sidecar), and stops.
struct Photo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a photo from each camera and of the composed picture, with thumbnails and a JSON sidecar.")

    @Argument(help: "The folder to write the photos to.")
    var folder: String

    @OptionGroup
    var sessionOptions: SessionOptions

    @OptionGroup(title: "Photo")
    var photo: PhotoOptions

    func run() async throws {
        let directory = try PhotoOptions.checkFolder(folder)
        // The composed picture is the recording's, composed and not written; a photo takes no sound.
        var configuration = try sessionOptions.configuration(outputPath: nil)
        configuration.movieFile?.writesFile = false
        for microphone in configuration.inputs where !microphone.device.isCamera { configuration.removeInput(id: microphone.id) }
        configuration.attachPhotoOutput(PhotoOutput(isLivePhotoCaptureEnabled: photo.live))
        let session = try CaptureSession(configuration: configuration)
        let stopper = SignalStopper(session: session)
        defer { stopper.cancel() }
        try await session.startRunning()
        do {
            try await session.capturePhoto(photo.settings(directory: directory), events: PhotoOptions.show)
        } catch {
            _ = try? await session.stopRunning()
            throw CLIError("no photo: \(error)")
        }
        _ = try await session.stopRunning()
    }
}
