import CaptureGraph
import CaptureModel
import Foundation

extension CaptureSession {
    /// Takes a photo from the running session (`capturePhoto(with:delegate:)`): a still from each camera
    /// connected to the photo output and of the composed picture, as `settings` says. The recording goes
    /// on untouched. `events` receives the capture's lifecycle in order.
    @discardableResult
    public func capturePhoto(_ settings: PhotoSettings, events: @escaping @Sendable (PhotoCaptureEvent) -> Void = { _ in }) async throws -> PhotoCaptureResult {
        let (running, configuration) = locked { (graph, committed) }
        guard let running else { throw CaptureError.photo(.sessionNotRunning) }
        guard configuration.photoOutput != nil else { throw CaptureError.photo(.noPhotoOutput) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: settings.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CaptureError.photo(.noFolder(settings.directory))
        }
        if let bracket = settings.bracket, !(2...9).contains(bracket.count) {
            throw CaptureError.photo(.bracketCount(bracket.count))
        }
        return try await PhotoCapture(running: running, configuration: configuration, settings: settings, report: events).run()
    }
}
