import CaptureModel
import Glibc

/// pipcam's own look at a server's address when a connection failed and GStreamer does not say why:
/// one TCP connect, bounded in time, whose outcome is the cause a person can act on (nobody listens,
/// nobody answers, no route, no such host). Blocks for at most `timeout`: call it off the streaming
/// threads and the cooperative pool.
public enum TCPReach {
    public static func check(_ endpoint: NetworkEndpoint, within timeout: Duration) -> NetworkReach {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &found) == 0, let first = found else { return .unknownHost }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return .unreachable }
        defer { close(socket) }
        if connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 { return .open }
        guard errno == EINPROGRESS else { return reach(ofError: errno) }
        var waiting = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var ready: Int32
        repeat { ready = poll(&waiting, 1, milliseconds) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return .noAnswer }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return .noAnswer }
        return error == 0 ? .open : reach(ofError: error)
    }

    private static func reach(ofError error: Int32) -> NetworkReach {
        switch error {
        case ECONNREFUSED: .refused
        case EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: .unreachable
        default: .noAnswer
        }
    }
}
