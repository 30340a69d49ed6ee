import Foundation

/// A camera on the network: an IP camera's RTSP stream, an SRT feed, or an HTTP MJPEG stream (a phone
/// app, a webcam server). It drops out as a USB camera is unplugged, and comes back the same way: through
/// the source keeper, into the same file (`SourceKeeper`).
///
/// The password (and an SRT passphrase or stream id) is secret: never encoded, shown as "****".
public struct NetworkCamera: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// `rtsp://`: H.264, H.265 or MJPEG over RTP, as IP cameras serve.
        case rtsp
        /// `srt://host:port` (pipcam calls) or `srt://:port` (pipcam listens): MPEG-TS.
        case srt
        /// `http://`, `https://`: multipart JPEG pictures (MJPEG), as webcam servers and phone apps send.
        case http
    }

    /// How RTSP's packets travel: either, as the camera offers (UDP first), or only one of them (TCP
    /// crosses firewalls and NAT; UDP loses pictures rather than falling behind).
    public enum Transport: String, Sendable, Codable, CaseIterable {
        case automatic, tcp, udp
    }

    public let kind: Kind
    /// The address with no user or password in it, as the source is given it (`shownAddress` is what a
    /// person sees).
    public let address: String
    public var user: String?
    public var password: String?
    /// How long a picture may take from the camera before its place in the recording: the network's
    /// jitter is absorbed within it (RTSP's jitter buffer, SRT's retransmissions).
    public var latency: Duration = Self.defaultLatency
    /// How long after the moment it shows the camera sends a picture (its encoder's own delay, as its
    /// maker states it or as the sync preset measures it): pipcam places each picture that much earlier,
    /// in step with the microphones, and the camera's own sound with it, as the camera sent the two.
    /// Nothing tells it otherwise: the stream carries when a picture was sent, not when it was seen.
    public var delay: Duration = .zero
    public var transport = Transport.automatic

    public static let defaultLatency = Duration.milliseconds(200)

    /// A camera from its URL as a person writes it; a user and password in it are taken out of the
    /// address. A URL pipcam cannot read throws a one-line `NetworkCameraProblem`.
    public init(url text: String) throws(NetworkCameraProblem) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .malformed("'\(SecretText.hint(text))' is not a URL (rtsp://host/path, srt://host:port, http://host/path)")
        }
        switch scheme {
        case "rtsp", "rtsps": kind = .rtsp
        case "srt": kind = .srt
        case "http", "https": kind = .http
        default: throw .unknownScheme(SecretText.hint(scheme))
        }
        guard kind == .srt || !(components.host ?? "").isEmpty else { throw .malformed("the URL needs a host: \(scheme)://host/…") }
        if kind == .srt {
            do {
                _ = try SRTAddress(address: text)
            } catch {
                switch error {
                case .malformed(let why): throw .malformed(why)
                case .portOutOfRange(let port): throw .malformed("port \(port) is out of range (1 to 65535)")
                }
            }
        }
        if let port = components.port, !(1...65535).contains(port) { throw .malformed("port \(port) is out of range (1 to 65535)") }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password.flatMap { $0.isEmpty ? nil : $0 }
        var plain = components
        plain.user = nil
        plain.password = nil
        guard let address = plain.string else { throw .malformed("'\(SecretText.hint(text))' is not a URL") }
        self.address = address
    }

    /// Whether the stream can carry sound beside the pictures: RTSP and MPEG-TS over SRT can, multipart
    /// JPEG over HTTP cannot.
    public var carriesSound: Bool { kind != .http }

    /// `srt://:port`: pipcam listens, and the camera calls it.
    public var isSRTListener: Bool { kind == .srt && srtAddress?.host.isEmpty == true }

    /// The address read as SRT's, for an SRT camera.
    var srtAddress: SRTAddress? {
        guard kind == .srt else { return nil }
        return try? SRTAddress(address: address)
    }

    /// The address as it may be shown: `rtsp://user:****@host/path`, and an SRT passphrase as "****".
    public var shownAddress: String {
        hidingSecrets(in: address.replacingOccurrences(of: "://", with: "://" + (user.map { "\($0)\(password == nil ? "" : ":****")@" } ?? ""),
                                                       options: [], range: address.range(of: "://")))
    }

    /// What is secret: the password, and an SRT passphrase or stream id written in the address.
    public var secrets: [String] {
        let fromQuery = ["passphrase", "streamid"].compactMap { srtAddress?.options[$0] }
        return ([password].compactMap { $0 } + fromQuery).filter { !$0.isEmpty }
    }

    /// Text that may hold the address or the password (a server's error, a log line) with every secret hidden.
    public func hidingSecrets(in text: String) -> String {
        SecretText.hiding(secrets, in: text)
    }

    /// The password stays out of anything encoded (a described session, a device list), and so does a
    /// secret in the address.
    private enum CodingKeys: String, CodingKey { case kind, address, user, latency, delay, transport }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(hidingSecrets(in: address), forKey: .address)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encode(latency, forKey: .latency)
        try container.encode(delay, forKey: .delay)
        try container.encode(transport, forKey: .transport)
    }
}

/// Why a network camera's URL cannot be used. Each sentence is about the URL, never its password.
public enum NetworkCameraProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownScheme(String)
    case malformed(String)

    public var description: String {
        switch self {
        case .unknownScheme(let scheme):
            "'\(scheme)' is not a camera pipcam takes: use rtsp://host/path, srt://host:port (srt://:port to listen) or http://host/path (MJPEG)"
        case .malformed(let why): why
        }
    }
}
