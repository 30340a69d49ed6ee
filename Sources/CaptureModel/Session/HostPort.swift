/// The one way pipcam writes and reads a host with its port: an IPv6 address in brackets, so that its
/// colons are not taken for the port's (`[::1]:8080`, `[fd00::5]:9000`), any other host as it is.
public enum HostPort {
    /// `host` as it is written before `:PORT`: an IPv6 address bracketed (once), any other host as it is.
    public static func bracketed<Host: StringProtocol>(_ host: Host) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : String(host)
    }

    /// `[::1]` as the address it holds; any other host as it is.
    public static func unbracketed<Host: StringProtocol>(_ host: Host) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : String(host)
    }

    /// `HOST:PORT`, an IPv6 host bracketed.
    public static func text<Host: StringProtocol>(_ host: Host, _ port: Int) -> String { "\(bracketed(host)):\(port)" }

    /// `HOST[:PORT]` taken apart: the host without brackets and the port's text (nil when none is
    /// written). Nil when a bracket is left open, or something other than `:PORT` follows it.
    public static func split<Text: StringProtocol>(_ authority: Text) -> (host: Substring, port: Substring?)? {
        let text = Substring(authority)
        guard text.hasPrefix("[") else {
            guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
            return (text[..<colon], text[text.index(after: colon)...])
        }
        guard let close = text.firstIndex(of: "]") else { return nil }
        let host = text[text.index(after: text.startIndex)..<close], after = text[text.index(after: close)...]
        if after.isEmpty { return (host, nil) }
        return after.hasPrefix(":") ? (host, after.dropFirst()) : nil
    }

    /// `HOST[:PORT]` read and checked, as a stream's or a camera's address has it: `defaultPort` when none
    /// is written, else `needsPort` is what is wrong. Nothing of the text but a hint is said back.
    public static func read(_ authority: Substring, defaultPort: Int?, needsPort: String) throws(AddressProblem) -> (host: String, port: Int) {
        guard let (host, portText) = split(authority) else {
            throw .malformed(authority.contains("]") ? "'\(SecretText.hint(String(authority)))' is not host:port" : "an IPv6 host is written [address]")
        }
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || "-.:_".contains($0) }) else {
            throw .malformed("'\(SecretText.hint(String(host)))' is not a host name")
        }
        guard let portText else {
            guard let defaultPort else { throw .malformed(needsPort) }
            return (String(host), defaultPort)
        }
        guard let port = Int(portText) else { throw .malformed("'\(SecretText.hint(String(portText)))' is not a port number") }
        guard (1...65535).contains(port) else { throw .portOutOfRange(port) }
        return (String(host), port)
    }
}

/// What is wrong with an address's host and port, or the rest of it, in one line.
public enum AddressProblem: Error, Sendable, Equatable {
    case malformed(String)
    case portOutOfRange(Int)
}
