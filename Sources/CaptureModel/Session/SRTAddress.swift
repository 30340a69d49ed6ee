import Foundation

/// The one reading of an SRT address, for a stream pipcam sends and a camera it receives:
/// `srt://host:port` (pipcam calls), `srt://:port` (pipcam listens), and options after `?` (`streamid`,
/// `passphrase`, `latency`, `mode`, …). SRT has no user, password or path: its secrets are options.
public struct SRTAddress: Sendable, Equatable {
    /// Empty when pipcam listens.
    public let host: String
    public let port: Int
    /// Option names lowercased, values percent-decoded.
    public let options: [String: String]

    /// Reads a whole address, `srt://…`.
    public init(address: String) throws(AddressProblem) {
        try self.init(afterScheme: String(address.drop { $0 != ":" }.dropFirst()))
    }

    /// Reads an address from its text after `srt:`.
    public init(afterScheme rest: String) throws(AddressProblem) {
        guard rest.hasPrefix("//") else { throw .malformed("an SRT address is srt://host:port or srt://:port") }
        let afterSlashes = rest.dropFirst(2)
        let authority = afterSlashes.prefix { $0 != "?" }
        let query = afterSlashes.dropFirst(authority.count + 1)
        guard !authority.contains("/") else { throw .malformed("an SRT address has no path: put the stream id in ?streamid=") }
        guard !authority.contains("@") else {
            throw .malformed("an SRT address has no user or password: SRT's secrets are its passphrase and stream id (passphrase-env, key-env)")
        }
        let (host, port) = try HostPort.read(authority, defaultPort: nil, needsPort: "an SRT address needs a port: srt://host:port, or srt://:port to listen")
        var options: [String: String] = [:]
        for item in query.split(separator: "&") where !item.isEmpty {
            let name = item.prefix { $0 != "=" }, value = String(item.dropFirst(name.count + 1))
            options[name.lowercased()] = value.removingPercentEncoding ?? value
        }
        self.host = host
        self.port = port
        self.options = options
    }
}
