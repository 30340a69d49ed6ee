import CaptureModel
import Foundation
import Glibc

/// pipcam's own look at a server's address when a connection failed and GStreamer does not say why:
/// one TCP connect, bounded in time, whose outcome is the cause a person can act on (nobody listens,
/// nobody answers, no route, no such host), and the first line the server answers to a request.
/// Blocks for at most the time given: call it off the streaming threads and the cooperative pool.
public enum TCPReach {
    public static func check(_ endpoint: NetworkEndpoint, within timeout: Duration) -> NetworkReach {
        switch open(endpoint, within: timeout) {
        case .success(let socket):
            close(socket)
            return .open
        case .failure(let reach):
            return reach.reach
        }
    }

    /// Connects, sends `request` and reads what the server answers within `timeout` (for the connect and
    /// the answer together): the reach, and the answer's first line (nil when it said nothing, or closed).
    public static func firstLine(at endpoint: NetworkEndpoint, sending request: String, within timeout: Duration) -> (reach: NetworkReach, line: String?) {
        let deadline = ContinuousClock.now + timeout
        let socket: Int32
        switch open(endpoint, within: timeout) {
        case .success(let opened): socket = opened
        case .failure(let reach): return (reach.reach, nil)
        }
        defer { close(socket) }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return (.open, nil) }
        var answer: [UInt8] = []
        while answer.count < 1024, !answer.contains(UInt8(ascii: "\n")) {
            guard wait(socket, for: Int16(POLLIN), until: deadline) else { break }
            var chunk = [UInt8](repeating: 0, count: 1024 - answer.count)
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            answer += chunk.prefix(count)
        }
        let line = answer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first.map { String(decoding: $0, as: UTF8.self) }
        return (.open, line.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A failure to connect, as an error.
    private struct Unreached: Error { let reach: NetworkReach }

    /// A connected socket (the caller closes it), or why there is none. Each of the host's addresses is
    /// tried in turn within the time (`localhost` is ::1 first, and a server may listen on 127.0.0.1 only),
    /// as GStreamer's own sockets do; the first address's failure is the one said, unless a later one says
    /// more than "no route".
    private static func open(_ endpoint: NetworkEndpoint, within timeout: Duration) -> Result<Int32, Unreached> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &found) == 0, found != nil else { return .failure(Unreached(reach: .unknownHost)) }
        defer { freeaddrinfo(found) }
        let deadline = ContinuousClock.now + timeout
        var failure: NetworkReach?
        var next = found
        while let address = next, ContinuousClock.now < deadline {
            next = address.pointee.ai_next
            switch connect(to: address.pointee, until: deadline) {
            case .success(let socket): return .success(socket)
            case .failure(let reach): if failure == nil || failure == .unreachable { failure = reach.reach }
            }
        }
        return .failure(Unreached(reach: failure ?? .noAnswer))
    }

    private static func connect(to address: addrinfo, until deadline: ContinuousClock.Instant) -> Result<Int32, Unreached> {
        let socket = Glibc.socket(address.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return .failure(Unreached(reach: .unreachable)) }
        var error: Int32 = 0
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
            error = errno
            if error == EINPROGRESS {
                var length = socklen_t(MemoryLayout<Int32>.size)
                if !wait(socket, for: Int16(POLLOUT), until: deadline) || getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) != 0 {
                    error = ETIMEDOUT
                }
            }
        }
        guard error == 0 else {
            close(socket)
            return .failure(Unreached(reach: reach(ofError: error)))
        }
        return .success(socket)
    }

    /// Whether `socket` became ready for `events` before `deadline`.
    private static func wait(_ socket: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        var waiting = pollfd(fd: socket, events: events, revents: 0)
        while true {
            let left = deadline - .now
            guard left > .zero else { return false }
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&waiting, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 || errno != EINTR { return false }
        }
    }

    private static func reach(ofError error: Int32) -> NetworkReach {
        switch error {
        case ECONNREFUSED: .refused
        case EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: .unreachable
        default: .noAnswer
        }
    }
}
