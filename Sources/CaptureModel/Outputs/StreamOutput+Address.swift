import Foundation

/// Why a stream cannot be made as asked. Each sentence names the stream, never its secrets.
public enum StreamProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownScheme(String)
    case malformed(String)
    case portOutOfRange(Int)
    case hostUnresolved(String)
    /// An HLS folder that cannot be made or written to.
    case folderUnusable(String, reason: String)
    /// `key-env` or `passphrase-env` names a variable that is not set (or is empty): what it holds.
    case secretMissing(String, variable: String)
    case duplicateName
    case notStarted(reason: String)

    public var description: String {
        switch self {
        case .unknownScheme(let scheme):
            "'\(scheme)' is not a stream pipcam sends: use srt://host:port (or srt://:port to listen), rtmp://host/app/key or hls:folder"
        case .malformed(let why): why
        case .portOutOfRange(let port): "port \(port) is out of range (1 to 65535)"
        case .hostUnresolved(let host): "host '\(host)' does not resolve"
        case .folderUnusable(let folder, let reason): "its folder \(folder) cannot be used: \(reason)"
        case .secretMissing(let what, let variable): "the \(what)'s variable \(variable) is not set"
        case .duplicateName: "another stream has the same name"
        case .notStarted(let reason): "it could not start: \(reason)"
        }
    }
}

extension StreamProblem {
    /// An address's host, port or form, as a stream's problem.
    init(_ problem: AddressProblem) {
        switch problem {
        case .malformed(let why): self = .malformed(why)
        case .portOutOfRange(let port): self = .portOutOfRange(port)
        }
    }
}

extension StreamOutput {
    /// A stream from its address as a person writes it: `srt://host:port?streamid=…` (pipcam calls),
    /// `srt://:port` (pipcam listens), `rtmp://[user:password@]host[:port]/app/key`, `hls:folder`. `key`
    /// and `passphrase`, when given (from the environment), are the RTMP stream key or SRT's stream id,
    /// and SRT's passphrase, kept out of the address.
    public init(name: String, address: String, key: String? = nil, passphrase: String? = nil) throws(StreamProblem) {
        guard let schemeEnd = address.range(of: ":") else { throw .malformed("the address has no scheme: srt://…, rtmp://… or hls:folder") }
        let scheme = address[..<schemeEnd.lowerBound].lowercased()
        let rest = String(address[schemeEnd.upperBound...])
        switch scheme {
        case "hls":
            guard !rest.isEmpty else { throw .malformed("hls: needs a folder (hls:/var/www/live)") }
            self.init(name: name, destination: .hls(folder: rest))
        case "srt":
            self = try Self.srt(name: name, rest, key: key, passphrase: passphrase)
        case "rtmp", "rtmps":
            guard passphrase == nil else { throw .malformed("an RTMP stream has no passphrase (a key, and a user and password in the address)") }
            self = try Self.rtmp(name: name, rest, secure: scheme == "rtmps", key: key)
        default:
            throw .unknownScheme(SecretText.hint(String(scheme)))
        }
    }

    private static func srt(name: String, _ rest: String, key: String?, passphrase: String?) throws(StreamProblem) -> StreamOutput {
        let address: SRTAddress
        do { address = try SRTAddress(afterScheme: rest) } catch { throw StreamProblem(error) }
        let host = address.host, port = address.port
        var query = address.options
        let mode = query.removeValue(forKey: "mode") ?? (host.isEmpty ? "listener" : "caller")
        var stream: StreamOutput
        switch mode {
        case "caller":
            guard !host.isEmpty else { throw .malformed("an SRT caller needs a host: srt://host:port") }
            stream = StreamOutput(name: name, destination: .srtCaller(host: host, port: port))
        case "listener":
            stream = StreamOutput(name: name, destination: .srtListener(port: port))
        default:
            throw .malformed("SRT's mode is caller or listener, not '\(SecretText.hint(mode))'")
        }
        stream.streamID = key ?? query.removeValue(forKey: "streamid")
        query["streamid"] = nil
        stream.passphrase = passphrase ?? query.removeValue(forKey: "passphrase")
        query["passphrase"] = nil
        if let passphrase = stream.passphrase, !(10...79).contains(passphrase.count) {
            throw .malformed("SRT's passphrase is 10 to 79 characters")
        }
        stream.options = query
        return stream
    }

    private static func rtmp(name: String, _ rest: String, secure: Bool, key: String?) throws(StreamProblem) -> StreamOutput {
        guard rest.hasPrefix("//") else { throw .malformed("an RTMP address is rtmp://host/app/key") }
        let (fullAuthority, pathText) = split(String(rest.dropFirst(2)), at: "/")
        // A '/' in a password ends the host early: the '@' turns up in the application, which has none.
        guard fullAuthority.contains("@") || !(pathText ?? "").prefix(while: { $0 != "/" }).contains("@") else {
            throw .malformed("a user or password in an RTMP address writes '/' as %2F")
        }
        let (userInfo, authority) = splitUserInfo(fullAuthority)
        let host: String, port: Int
        do {
            (host, port) = try HostPort.read(Substring(authority), defaultPort: rtmpPort(secure: secure), needsPort: "the address needs a port: host:port")
        } catch { throw StreamProblem(error) }
        guard !host.isEmpty else { throw .malformed("an RTMP address needs a host: rtmp://host/app/key") }
        var path = (pathText ?? "").split(separator: "/").map(String.init)
        if let key { path.append(key) }
        guard path.count >= 2 else { throw .malformed("an RTMP address needs an application and a stream key: rtmp://host/app/key") }
        let application = path.removeFirst()
        var stream = StreamOutput(name: name, destination: .rtmp(secure: secure, host: host, port: port, application: application,
                                                                 key: path.joined(separator: "/")))
        if let userInfo {
            let (user, password) = split(userInfo, at: ":")
            stream.user = user.removingPercentEncoding ?? user
            stream.password = password.map { $0.removingPercentEncoding ?? $0 }
        }
        return stream
    }

    /// `user:password@host:port` as its user info (nil without an '@') and the rest.
    private static func splitUserInfo(_ authority: String) -> (String?, String) {
        guard let at = authority.lastIndex(of: "@") else { return (nil, authority) }
        return (String(authority[..<at]), String(authority[authority.index(after: at)...]))
    }


    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}
