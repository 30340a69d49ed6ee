import Foundation

/// What pipcam asks a camera's server itself before it opens the camera's stream, and what the answer
/// means: GStreamer's sources say "its stream stopped" or "Parse error" for a closed port, a silent
/// server, a wrong kind of server or a missing login alike, and the person needs to know which.
extension NetworkCamera {
    /// The server's host and port (the scheme's own port when none is written); nil for SRT (UDP).
    public var endpoint: NetworkEndpoint? {
        guard kind != .srt, let components = URLComponents(string: address), let host = components.host, !host.isEmpty else { return nil }
        let defaults = ["rtsp": 554, "rtsps": 322, "http": 80, "https": 443]
        guard let port = components.port ?? components.scheme.flatMap({ defaults[$0.lowercased()] }) else { return nil }
        return NetworkEndpoint(host: HostPort.unbracketed(host), port: port)
    }

    /// The request whose answer's first line tells a server of the right kind (RTSP's OPTIONS, HTTP's
    /// GET with the login), or nil where none is sent: SRT, and servers behind TLS (only their reach is
    /// looked at).
    public var greeting: String? {
        guard let components = URLComponents(string: address), let scheme = components.scheme?.lowercased() else { return nil }
        switch scheme {
        case "rtsp": return "OPTIONS \(address) RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: pipcam\r\n\r\n"
        case "http":
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
            let login = user.map { "Authorization: Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() + "\r\n" } ?? ""
            return "GET \(path)\(query) HTTP/1.0\r\nHost: \(components.host ?? "")\r\nUser-Agent: pipcam\r\n\(login)Connection: close\r\n\r\n"
        default: return nil
        }
    }

    /// Why the camera cannot be opened, from pipcam's own look at its server (`reach`, and the first line
    /// it answered to `greeting`); nil when the server looks like the camera's and the stream itself is
    /// to be tried.
    public func cause(reach: NetworkReach, firstLine: String?) -> String? {
        guard let endpoint else { return nil }
        if let cause = endpoint.cause(of: reach) { return cause }
        guard greeting != nil else { return nil }
        guard let line = firstLine else { return "the server at \(endpoint) took the connection but never answered" }
        let protocolName = kind == .rtsp ? "RTSP" : "HTTP"
        guard line.hasPrefix(protocolName + "/") else {
            return "the server at \(endpoint) is not an \(protocolName) server (it answered '\(SecretText.hint(String(line.unicodeScalars.filter { $0.value >= 32 && $0.value != 127 }.map(Character.init))))')"
        }
        let status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        switch status {
        // With a login given, the stream's own source tries it (and Digest, which this look does not).
        case 401, 403: return user == nil ? "it needs a user and password (unauthorized)" : nil
        case 404: return kind == .http ? "nothing is at that address (not found)" : nil
        case 400...599 where kind == .http: return "it answered \(status) where pictures were expected"
        default: return nil
        }
    }
}
