import CaptureModel
import GStreamer

/// Why a network camera's source failed, as a person reads it, in the words pipcam's own look at a
/// server uses (`NetworkCamera.cause`). It is read from GLib's domain and code and from the status the
/// element attached, never from GStreamer's text, which is translated and worded differently by each
/// element and library version. Where those cannot tell the causes apart (rtspsrc has one code for a
/// connection refused and a host that does not resolve; souphttpsrc with libsoup 3 ends every failure to
/// reach its server as the same flow error), pipcam looks at the server itself.
struct NetworkCameraFailure: Sendable {
    let code: ErrorCode?
    /// The HTTP or RTSP status the source attached: the server's answer, or below 100 libsoup 2's own
    /// code for a connection that failed.
    let status: Int?
    /// What the camera sends that no decoder takes, when decodebin said (`missingDecoder(in:)`).
    let undecodable: String?

    /// `look` is pipcam's own look at the server, asked only when the code cannot tell; `text`, the
    /// error's own, is said when nothing else can be.
    func reason(for camera: NetworkCamera, text: String, look: () -> String?) -> String {
        if code == .notAuthorized || status == 401 {
            return camera.user == nil ? "it needs a user and password (unauthorized)" : "it refused the user and password (unauthorized)"
        }
        if status == 404 || (code == .resourceNotFound && status == nil) { return "nothing is at that address (not found)" }
        if code == .missingPlugin { return "it sends \(undecodable ?? "a stream"), not a picture pipcam can decode" }
        if code == .cannotDemux { return "it sends no MJPEG pictures (not multipart JPEG)" }
        if let seen = look() { return seen }
        if code?.domain == ErrorCode.resourceDomain { return "it stopped answering" }
        if code?.domain == ErrorCode.streamDomain { return "its stream stopped" }
        return text
    }

    private static let formats = ["video/x-h264": "H.264", "video/x-h265": "H.265", "video/x-vp8": "VP8", "video/x-vp9": "VP9",
                                  "video/x-av1": "AV1", "image/jpeg": "MJPEG", "video/mpeg": "MPEG video", "video/x-theora": "Theora"]
}

extension NetworkCameraFailure {
    /// What a kept camera's failure says, its secrets hidden: pipcam looks at the server for at most a
    /// second where the code cannot tell.
    static func said(_ message: Message, of camera: NetworkCamera, text: String, undecodable: String?) -> String {
        camera.hidingSecrets(in: NetworkCameraFailure(message, undecodable: undecodable)
            .reason(for: camera, text: text) { NetworkCameraProbe.lookAtServer(of: camera, within: .seconds(1)) })
    }

    init(_ message: Message, undecodable: String?) {
        self.init(code: message.errorCode, status: message.errorDetails.flatMap { $0.int("http-status-code") ?? $0.int("rtsp-status-code") },
                  undecodable: undecodable)
    }

    /// What a source sends that no decoder takes, from decodebin's "missing-plugin" message: the format
    /// by the name people know it by, else its media type; nil for any other message.
    static func missingDecoder(in message: Message) -> String? {
        guard case .element(let structure) = message.kind, structure.name == "missing-plugin", structure.string("type") == "decoder",
              case .value(.caps(let caps))? = structure["detail"], let media = caps.structures.first?.name else { return nil }
        return formats[media] ?? media
    }
}
