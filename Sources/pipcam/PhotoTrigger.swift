import Capture
import Foundation

/// `record --photos DIR`: SIGUSR1 takes a photo while recording (`kill -USR1 <pid>`). Captures run beside
/// the recording; stopping waits for any still being encoded, so no half-written image is left.
final class PhotoTrigger: @unchecked Sendable {
    private let source: DispatchSourceSignal
    private let lock = NSLock()
    private var running: [Task<Void, Never>] = []

    init(session: CaptureSession, directory: String?, options: PhotoOptions) {
        signal(SIGUSR1, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
        source.setEventHandler { [weak self] in
            guard let directory else {
                FileHandle.standardError.write(Data("\nphotos are off: start the recording with --photos DIR\n".utf8))
                return
            }
            let task = Task {
                do {
                    try await session.capturePhoto(options.settings(directory: directory), events: PhotoOptions.show)
                } catch {
                    FileHandle.standardError.write(Data("\nno photo: \(error)\n".utf8))
                }
            }
            self?.lock.withLock { self?.running.append(task) }
        }
        source.resume()
    }

    /// Stops taking photos and waits for those under way.
    func finish() async {
        source.cancel()
        for task in lock.withLock({ running }) { await task.value }
    }
}
