import Dispatch
import Foundation

/// Hands frames (or audio buffers) from a streaming thread to Swift: to a delegate on a queue the caller
/// picks, and to any number of AsyncSequences. It never makes the recording wait:
///
/// - discarding late items (the default), an item that arrives while the delegate is still busy with the
///   previous one is dropped, and a stream keeps only the newest undelivered item;
/// - otherwise up to `backlog` items wait for the delegate, holding back only the tap's own branch, whose
///   leaky queue drops beyond that; streams keep up to `backlog` items.
///
/// Each item gets the next sequence number when it arrives, so gaps tell a consumer what it lost.
public final class DataDelivery<Item: Sendable>: @unchecked Sendable {
    /// How many items wait for a consumer when late items are kept.
    public static var backlog: Int { 30 }

    private let lock = NSLock()
    private var delegate: (queue: DispatchQueue, deliver: @Sendable (Item) -> Void)?
    private var streams: [Int: AsyncStream<Item>.Continuation] = [:]
    private var nextStreamID = 0
    private var sequence = 0
    private var discarded = 0
    private var discardsLate = true
    private var slots = DispatchSemaphore(value: 1)

    init() {}

    /// Items lost because a consumer was still busy (delegate) or had not taken the previous one (stream).
    public var discardedCount: Int { lock.withLock { discarded } }

    func setDelegate(queue: DispatchQueue, _ deliver: @escaping @Sendable (Item) -> Void) {
        lock.withLock { delegate = (queue, deliver) }
    }

    func removeDelegate() {
        lock.withLock { delegate = nil }
    }

    /// Set when a graph with this output is built.
    package func configure(discardsLate: Bool) {
        lock.withLock {
            guard discardsLate != self.discardsLate else { return }
            self.discardsLate = discardsLate
            slots = DispatchSemaphore(value: discardsLate ? 1 : Self.backlog)
        }
    }

    func stream() -> AsyncStream<Item> {
        let limit = lock.withLock { discardsLate ? 1 : Self.backlog }
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(limit))
        let id = lock.withLock {
            nextStreamID += 1
            streams[nextStreamID] = continuation
            return nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { _ = self.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// The next sequence number, taken as an item arrives from the graph.
    package func nextSequenceNumber() -> Int {
        lock.withLock {
            defer { sequence += 1 }
            return sequence
        }
    }

    /// Called on the streaming thread with each item.
    package func offer(_ item: Item) {
        let (delegate, streams, discardsLate, slots) = lock.withLock { (self.delegate, Array(self.streams.values), self.discardsLate, self.slots) }
        var lost = 0
        for stream in streams {
            if case .dropped = stream.yield(item) { lost += 1 }
        }
        if let delegate {
            if discardsLate {
                if slots.wait(timeout: .now()) == .timedOut {
                    lost += 1
                } else {
                    delegate.queue.async { delegate.deliver(item); slots.signal() }
                }
            } else {
                slots.wait()
                delegate.queue.async { delegate.deliver(item); slots.signal() }
            }
        }
        if lost > 0 { lock.withLock { discarded += lost } }
    }

    /// Ends every stream (the session stopped).
    func finish() {
        let streams = lock.withLock { Array(self.streams.values) }
        for stream in streams { stream.finish() }
    }
}
