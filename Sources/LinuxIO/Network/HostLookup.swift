import CaptureModel
import Glibc

/// Whether a stream's host resolves, asked before anything starts: a typing mistake in a server's name
/// is one line at once, not a stream that retries for ever while the recording runs.
public enum HostLookup {
    /// The first of the streams whose host does not resolve.
    public static func check(_ streams: [StreamOutput]) throws {
        for stream in streams {
            guard let host = stream.endpoint?.host, !resolves(host) else { continue }
            throw CaptureError.streamOutput(name: stream.name, .hostUnresolved(host))
        }
    }

    /// Numeric addresses resolve without asking anyone; names are asked of the system's resolver.
    public static func resolves(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &found)
        if let found { freeaddrinfo(found) }
        return status == 0
    }
}
