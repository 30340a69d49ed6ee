import Capture

/// Where the web page listens: `127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:8080`, `localhost:8080`. Only a
/// loopback address is served without a token.
public struct WebAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int

    /// Reads `HOST:PORT`; a missing host or port, a port out of range or a bracketed address that is not
    /// closed gets one line naming what is wrong.
    public init(_ text: String) throws {
        guard let (host, written) = HostPort.split(text) else {
            throw WebRemoteError("the web address '\(text)' needs the form [ADDRESS]:PORT, such as [::1]:8080")
        }
        guard let port = written else {
            throw WebRemoteError("the web address '\(text)' needs a port: HOST:PORT, such as 127.0.0.1:8080")
        }
        guard !host.isEmpty else { throw WebRemoteError("the web address '\(text)' needs a host: 127.0.0.1 for this machine alone, 0.0.0.0 for every network") }
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:_".contains($0) }) else {
            throw WebRemoteError("the web address '\(text)' has a host that is not a name or an address")
        }
        guard let number = Int(port), (1...65535).contains(number) else {
            throw WebRemoteError("the web address '\(text)' needs a port from 1 to 65535, not '\(port)'")
        }
        self.host = String(host)
        self.port = number
    }

    /// Only this machine can reach it: no token is asked for.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// `localhost`, `::1` or an IPv4 address in 127.0.0.0/8, written as one: never a name that merely
    /// starts like one (127.0.0.1.example resolves wherever its owner wants).
    static func isLoopback<Name: StringProtocol>(_ name: Name) -> Bool {
        if name == "localhost" || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in part.count <= 3 && Int(part).map { (0...255).contains($0) } == true && part.allSatisfy(\.isNumber) }
    }

    public var description: String { HostPort.text(host, port) }
}

/// One line saying what is wrong with the web page's settings or its token.
public struct WebRemoteError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
