import CaptureModel
import Foundation

/// A recording's file while it is written. Its data reaches the disk every second (`fdatasync`), so a
/// power cut loses at most about the last two seconds (this second's, and what the muxer and encoder
/// still held); and it is locked (`flock`), so that another pipcam knows it is not a crashed recording
/// to repair. The lock goes with the process, however it ends.
public final class FileInProgress: @unchecked Sendable {
    /// How often what was written is pushed to the disk.
    public static let syncInterval: Duration = .seconds(1)

    private let lock = NSLock()
    private var timer: DispatchSourceTimer?

    /// Starts syncing and holds the lock; nil when the file cannot be opened (it is not there yet).
    public init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = Int(Self.syncInterval.components.seconds * 1000)
        timer.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval))
        timer.setEventHandler { _ = fdatasync(descriptor) }
        // The descriptor closes only once no sync can run on it any more.
        timer.setCancelHandler {
            _ = fdatasync(descriptor)
            close(descriptor)
        }
        timer.resume()
        self.timer = timer
    }

    /// Syncs a last time and lets go of the file (the muxer has finished it).
    public func end() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
    }

    deinit { end() }

    /// Whether a running recording holds the file at `path`.
    public static func isHeld(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        _ = flock(descriptor, LOCK_UN)
        return false
    }
}
