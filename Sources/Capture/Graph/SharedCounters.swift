// Small lock-protected values written from GStreamer's streaming and bus threads and read by the session.
import Foundation

/// A counter bumped from streaming threads and read by the status line.
final class FrameCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var last: Duration?

    func bump(_ time: Duration?) {
        lock.lock()
        count += 1
        if let time { last = time }
        lock.unlock()
    }

    var value: Int {
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

/// The first failure a running graph reported, kept so that a failed start can say why.
final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?

    /// Keeps `reason` if it is the first.
    func record(_ reason: String) {
        lock.lock()
        if text == nil { text = reason }
        lock.unlock()
    }

    var value: String? {
        lock.lock()
        defer { lock.unlock() }
        return text
    }
}

/// A flag set once, from any thread.
final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    func set() {
        lock.lock()
        flag = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flag
    }
}
