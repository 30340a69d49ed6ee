import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The network cameras the tests record from, served for real on 127.0.0.1 and ready once their process
/// holds its port (as `MediaServers` waits for a server): an IP camera's RTSP server (GstRtspServer,
/// `Tests/Programs/rtsp-camera.py`), and ffmpeg sending MJPEG over HTTP or MPEG-TS over SRT.
///
/// Each can be killed (a camera unplugged from the network, a server that crashed) and started again on
/// the same port.
public final class NetworkCameraServer: @unchecked Sendable {
    public enum Kind: Sendable {
        /// rtsp://127.0.0.1:PORT/cam, a test pattern in H.264; with `credentials` ("user:password"), only
        /// that user may watch.
        case rtsp(pattern: String, credentials: String?)
        /// http://127.0.0.1:PORT/cam, multipart JPEG; ffmpeg serves one viewer, then ends.
        case mjpeg
        /// srt://127.0.0.1:PORT, MPEG-TS with H.264; ffmpeg listens for one caller.
        case srt
    }

    /// What the RTSP camera needs beside python3: its GObject bindings and the RTSP server's typelib,
    /// for the package test.
    public static var programs: [String] {
        let typelib = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).filter { $0.hasSuffix("-linux-gnu") }
            .map { "/usr/lib/\($0)/girepository-1.0/GstRtspServer-1.0.typelib" }
            .first { FileManager.default.fileExists(atPath: $0) } ?? "/usr/lib/girepository-1.0/GstRtspServer-1.0.typelib"
        return ["/usr/bin/python3", "/usr/lib/python3/dist-packages/gi/__init__.py", typelib]
    }

    public let kind: Kind
    public let port: Int
    private let command = Locked<RunningCommand?>(nil)

    public init(_ kind: Kind) throws {
        self.kind = kind
        port = freeLocalPort(udp: { if case .srt = kind { return true } else { return false } }())
        try start()
    }

    deinit { kill() }

    /// Where pipcam finds the camera (without credentials: the test gives them as a user would).
    public var url: String {
        switch kind {
        case .rtsp: "rtsp://127.0.0.1:\(port)/cam"
        case .mjpeg: "http://127.0.0.1:\(port)/cam"
        case .srt: "srt://127.0.0.1:\(port)"
        }
    }

    /// Kills the server at once, as a crash or a pulled cable would end it: no goodbye to the viewer.
    public func kill() {
        let running = command.withValue { command in
            defer { command = nil }
            return command
        }
        _ = running?.end(with: SIGKILL)
    }

    /// Starts the server again on its port, once it no longer runs.
    public func start() throws {
        let arguments: [String]
        var udp = false
        switch kind {
        case .rtsp(let pattern, let credentials):
            arguments = ["/usr/bin/python3", "\(Paths.repository)/Tests/Programs/rtsp-camera.py", String(port), pattern] + (credentials.map { [$0] } ?? [])
        case .mjpeg:
            arguments = Self.ffmpegPattern + ["-c:v", "mjpeg", "-q:v", "5", "-f", "mpjpeg", "-listen", "1", "http://127.0.0.1:\(port)/cam"]
        case .srt:
            udp = true
            arguments = Self.ffmpegPattern + ["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "15",
                                              "-f", "mpegts", "srt://127.0.0.1:\(port)?mode=listener"]
        }
        let started = try Command.start(arguments)
        try MediaServers.wait(for: "the network camera on 127.0.0.1:\(port)", of: started) {
            MediaServers.holds(started, port: port, udp: udp)
        }
        command.withValue { $0 = started }
    }

    /// ffmpeg drawing white at 640x360, 15 pictures a second, in real time.
    private static let ffmpegPattern = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                                        "color=c=white:size=640x360:rate=15"]
}
