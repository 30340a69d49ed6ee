import Foundation

/// The recording sent live to a media server people already run (or pulled from pipcam by viewers),
/// beside the file: OBS's "stream while recording", with one promise OBS does not make: a network that
/// stalls or a server that goes away never costs the recording a picture (`StreamWriter`).
public struct StreamOutput: Sendable, Hashable {
    /// Where the stream goes, and so which container carries it.
    public enum Destination: Sendable, Hashable {
        /// pipcam calls an SRT listener (MediaMTX, srt-live-transmit, OBS, ffmpeg): MPEG-TS.
        case srtCaller(host: String, port: Int)
        /// pipcam listens and viewers call it: MPEG-TS.
        case srtListener(port: Int)
        /// An RTMP server's application and stream key (nginx-rtmp, Owncast, YouTube, PeerTube): FLV.
        case rtmp(secure: Bool, host: String, port: Int, application: String, key: String)
        /// A folder of HLS segments and their playlist, for any static web server: MPEG-TS parts.
        case hls(folder: String)
    }

    public var name: String
    public var destination: Destination
    /// SRT's stream id and passphrase (the id often carries a server's credentials, as MediaMTX's
    /// `publish:path:user:pass`); nil when not given. Secret: never shown.
    public var streamID: String?
    public var passphrase: String?
    /// RTMP's user and password (`rtmp://user:password@host/…`), for servers that ask for them; the
    /// password is secret.
    public var user: String?
    public var password: String?
    /// SRT's other query items (latency, …), passed on as given.
    public var options: [String: String] = [:]
    /// True makes a stream that cannot start an error that stops the recording's start; by default
    /// the recording goes on and the stream is tried again.
    public var required = false
    /// The stream's own picture, encoded beside the recording's (kbit/s, and size): for a small
    /// stream beside a large file. Nil takes the recording's encoded picture as it is: no second encode.
    public var videoBitrate: Int?
    public var size: Size?

    public struct Size: Sendable, Hashable {
        public let width: Int, height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// Even sides (what the encoder takes) within a camera's bounds.
        public var isValid: Bool {
            SessionLimits.cameraWidth.contains(width) && SessionLimits.cameraHeight.contains(height) && width % 2 == 0 && height % 2 == 0
        }
    }

    public init(name: String, destination: Destination) {
        self.name = name
        self.destination = destination
    }

    /// Whether the stream needs a picture of its own (a bitrate or size of its own).
    public var encodesItsOwnPicture: Bool { videoBitrate != nil || size != nil }

    /// What is secret in the stream's address: the stream key, SRT's stream id and passphrase.
    public var secrets: [String] {
        var secrets = [streamID, passphrase, password].compactMap { $0 }.filter { !$0.isEmpty }
        if case .rtmp(_, _, _, _, let key) = destination, !key.isEmpty { secrets.append(key) }
        return secrets
    }

    /// The address as it may be shown: every secret as "****" (`rtmp://host/live/****`).
    public var shownAddress: String {
        switch destination {
        case .srtCaller(let host, let port): "srt://\(HostPort.bracketed(host)):\(port)" + shownQuery
        case .srtListener(let port): "srt://:\(port)" + shownQuery
        case .rtmp(let secure, let host, let port, let application, let key):
            "\(secure ? "rtmps" : "rtmp")://\(shownUser)\(HostPort.bracketed(host))\(port == Self.rtmpPort(secure: secure) ? "" : ":\(port)")/\(application)"
                + (key.isEmpty ? "" : "/****")
        case .hls(let folder): "hls:" + folder
        }
    }

    /// Text that may hold the address (a server's error, a log line) with every secret hidden.
    public func hidingSecrets(in text: String) -> String {
        SecretText.hiding(secrets, in: text)
    }

    /// The address GStreamer's sink is given, secrets included (RTMP's user and password go to the sink's
    /// own properties): for the sink only, never for a person.
    package var sinkAddress: String {
        switch destination {
        case .srtCaller(let host, let port): "srt://\(HostPort.bracketed(host)):\(port)" + query(mode: "caller")
        case .srtListener(let port): "srt://:\(port)" + query(mode: "listener")
        case .rtmp(let secure, let host, let port, let application, let key):
            "\(secure ? "rtmps" : "rtmp")://\(HostPort.bracketed(host)):\(port)/\(application)" + (key.isEmpty ? "" : "/" + key)
        case .hls(let folder): folder
        }
    }

    /// SRT's latency: how long a receiver waits for lost packets to be sent again (its `latency` query
    /// item in milliseconds, else SRT's 120 ms); nil for other streams. Four round trips cover a lossy
    /// network: `?latency=1000` for one with a 250 ms round trip.
    public var srtLatency: Duration? {
        switch destination {
        case .srtCaller, .srtListener: .milliseconds(options["latency"].flatMap { Int($0) } ?? 120)
        case .rtmp, .hls: nil
        }
    }

    static func rtmpPort(secure: Bool) -> Int { secure ? 443 : 1935 }

    /// `user:****@`, `user@` or nothing.
    private var shownUser: String {
        guard let user else { return password == nil ? "" : "****@" }
        return user + (password == nil ? "" : ":****") + "@"
    }

    private var shownQuery: String {
        let items = (streamID.map { _ in ["streamid=****"] } ?? []) + (passphrase.map { _ in ["passphrase=****"] } ?? [])
            + options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }

    private func query(mode: String) -> String {
        var items = ["mode=\(mode)"]
        if let streamID { items.append("streamid=" + Self.percentEncoded(streamID)) }
        if let passphrase { items.append("passphrase=" + Self.percentEncoded(passphrase)) }
        items += options.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.percentEncoded($0.value))" }
        return "?" + items.joined(separator: "&")
    }

    private static func percentEncoded(_ text: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/")
        return text.unicodeScalars.map { allowed.contains(Character($0)) ? String($0) : $0.utf8.map { String(format: "%%%02X", $0) }.joined() }
            .joined()
    }
}
