/// What pipcam's own check found at a server's address (a TCP connect of its own, made when a stream
/// or a camera failed without GStreamer saying why): the cause a person can act on.
public enum NetworkReach: Sendable, Equatable {
    /// Something took the connection: the failure is the server's answer, not the network.
    case open
    /// Nothing listens at the port (the host answered with a refusal).
    case refused
    /// No answer at all within the check's time: a host that is off, a firewall that drops, a wrong address.
    case noAnswer
    /// No route to the host (the network says so at once).
    case unreachable
    case unknownHost
}

/// A host and port as a person writes them: `[::1]:1935` for IPv6.
public struct NetworkEndpoint: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { HostPort.text(host, port) }

    /// What `reach` says of this address, as the start of a sentence's cause; nil when something took
    /// the connection (the server's own answer is the cause).
    public func cause(of reach: NetworkReach) -> String? {
        switch reach {
        case .open: nil
        case .refused: "nobody listens at \(self) (connection refused)"
        case .noAnswer: "nobody answers at \(self)"
        case .unreachable: "\(self) cannot be reached (no route to it)"
        case .unknownHost: "host '\(host)' does not resolve"
        }
    }
}
