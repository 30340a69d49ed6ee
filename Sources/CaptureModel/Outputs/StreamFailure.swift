/// Why a stream failed, said once in a person's words (`StreamOutput.cause(of:)`), from what pipcam
/// knows without reading GStreamer's messages: whether the stream had been live, how soon the failure
/// came, what pipcam's own check of the address found, and whether the server refused the login.
public struct StreamFailure: Sendable, Equatable {
    /// The stream had been live on this connection.
    public var wasLive: Bool
    /// The failure came within `StreamFailure.quickAnswer` of the stream's start: the far end answered,
    /// with a refusal (SRT's listener refuses a wrong passphrase at once; nobody answering takes seconds).
    public var answeredQuickly: Bool
    /// What a connect of pipcam's own found at the address (RTMP's TCP); nil where none was made.
    public var reach: NetworkReach?
    /// The server refused the user and password (RTMP's authorization).
    public var notAuthorized = false
    /// GStreamer's own words, secrets hidden: said only when nothing above explains the failure.
    public var fallback: String

    public static let quickAnswer: Duration = .milliseconds(1500)

    public init(wasLive: Bool, answeredQuickly: Bool, reach: NetworkReach?, notAuthorized: Bool = false, fallback: String) {
        self.wasLive = wasLive
        self.answeredQuickly = answeredQuickly
        self.reach = reach
        self.notAuthorized = notAuthorized
        self.fallback = fallback
    }
}

extension StreamOutput {
    /// The server's host and port, for streams that call one.
    public var endpoint: NetworkEndpoint? {
        switch destination {
        case .srtCaller(let host, let port), .rtmp(_, let host, let port, _, _): NetworkEndpoint(host: host, port: port)
        case .srtListener, .hls: nil
        }
    }

    /// The server's address that pipcam's own TCP connect can look at: RTMP's (SRT runs over UDP).
    public var tcpEndpoint: NetworkEndpoint? {
        guard case .rtmp = destination else { return nil }
        return endpoint
    }

    /// `failure` as one sentence: "nobody listens at 127.0.0.1:1935 (connection refused)", "the listener
    /// at …:9000 refused the call: a wrong passphrase or stream id".
    public func cause(of failure: StreamFailure) -> String {
        guard let endpoint else { return failure.fallback }
        switch destination {
        case .srtCaller:
            if failure.wasLive { return "the connection to \(endpoint) was lost" }
            if failure.answeredQuickly {
                return "the listener at \(endpoint) refused the call: "
                    + (passphrase != nil || streamID != nil ? "a wrong passphrase or stream id" : "it may want a passphrase or a stream id")
            }
            return "nobody answers at \(endpoint)"
        default:
            if let reach = failure.reach, let cause = endpoint.cause(of: reach) {
                return failure.wasLive && reach == .refused ? "the server at \(endpoint) went away (connection refused)" : cause
            }
            if failure.notAuthorized {
                return user == nil ? "the server at \(endpoint) needs a user and password" : "the server at \(endpoint) refused the user and password"
            }
            if failure.wasLive { return "the server at \(endpoint) closed the connection" }
            if failure.reach == .open {
                return failure.answeredQuickly ? "the server at \(endpoint) refused the stream (check its application and key)"
                    : "the server at \(endpoint) took the connection but never answered"
            }
            return failure.fallback
        }
    }
}
