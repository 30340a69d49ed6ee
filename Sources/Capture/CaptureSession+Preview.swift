import CaptureGraph
import CaptureModel
import Foundation

/// What a preview and live controls need of a running session, beyond commits.
extension CaptureSession {
    /// Shows `text` over the preview picture (when its overlay is on); the recording never shows it.
    public func setPreviewOverlay(_ text: String) throws {
        try locked { graph }?.setPreviewOverlay(text)
    }

    /// The preview's JPEG pictures from now on (the web page's live view). Their branch runs while any
    /// such stream is read, and stops when the last one ends.
    public func previewPictures() throws -> AsyncStream<PreviewPicture> { try previewWatchers.pictures(of: self) }

    /// Turns a camera or a microphone off or on in every output it is connected to, in place: its valves
    /// turn its buffers into gaps, so the picture and the sound go on without it and no file is cut.
    public func setInputEnabled(_ enabled: Bool, inputID: String) async throws {
        try await update { configuration in
            for index in configuration.connections.indices where configuration.connections[index].inputPorts.contains(where: { $0.inputID == inputID }) {
                configuration.connections[index].isEnabled = enabled
            }
        }
    }
}
