import Locking

/// The lines every open WebSocket is sent: events as they happen and the status each second. Each client
/// has its own stream of the newest lines, so a client that reads slowly loses its oldest lines rather
/// than holding the session's memory or its events.
final class EventBroadcast: Sendable {
    private let clients = Locked<[Int: AsyncStream<String>.Continuation]>([:])
    private let nextID = Locked(0)

    /// How many lines a client may be behind before its oldest are dropped.
    static let backlog = 256

    var isWatched: Bool { !clients.value.isEmpty }

    /// A stream of the lines from now on; it ends when the client goes or the page stops.
    func subscribe() -> AsyncStream<String> {
        let id = nextID.withValue { id in
            id += 1
            return id
        }
        let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(Self.backlog))
        continuation.onTermination = { [clients] _ in clients.withValue { _ = $0.removeValue(forKey: id) } }
        clients.withValue { $0[id] = continuation }
        return lines
    }

    func send(_ line: String) {
        for client in clients.value.values { client.yield(line) }
    }

    func finish() {
        let all = clients.withValue { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        all.forEach { $0.finish() }
    }
}
