import Locking
import NIOCore

/// The connections that have not yet sent a whole request head, oldest first. They are bounded apart
/// from the server's connection limit: when one more opens past `limit`, the oldest is closed. So any
/// number of connections that open and never speak (or speak a byte at a time) hold at most `limit` of
/// the server's places, and a request that comes whole at once is always answered: it evicts the
/// oldest waiting one, never itself.
final class WaitingConnections: Sendable {
    /// Browsers open a few connections at once and speak at once; more than this, silent, is an attack.
    static let limit = 16

    /// Oldest first.
    private let waiting = Locked<[any Channel]>([])

    /// A new connection waits for its head; closes the oldest when too many do.
    func opened(_ channel: any Channel) {
        let evicted: (any Channel)? = waiting.withValue { waiting in
            waiting.append(channel)
            return waiting.count > Self.limit ? waiting.removeFirst() : nil
        }
        evicted?.close(promise: nil)
    }

    /// The connection sent its head, or closed.
    func ended(_ channel: any Channel) {
        waiting.withValue { $0.removeAll { $0 === channel } }
    }
}
