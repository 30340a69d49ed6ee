import CaptureModel
import Foundation

/// A counter bumped from streaming threads and read by the status line.
package final class FrameCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var last: Duration?

    package func bump(_ time: Duration?) {
        lock.lock()
        count += 1
        if let time { last = time }
        lock.unlock()
    }

    package var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    /// The newest timestamp seen.
    var lastTime: Duration? {
        lock.lock()
        defer { lock.unlock() }
        return last
    }
}
