import Foundation

/// A client of pipcam's `--control` socket: writes one JSON line, reads the one-line answer.
public final class ControlClient {
    private let socket: Int32

    /// Connects to `path`, waiting up to `timeout` seconds for pipcam to create it.
    public init(path: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        while true {
            let candidate = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(candidate, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected == 0 {
                socket = candidate
                return
            }
            close(candidate)
            guard Date() < deadline else { throw ProbeError("no control socket at \(path) within \(timeout) s") }
            usleep(50_000)
        }
    }

    deinit { close(socket) }

    /// Sends `line` and returns the answer as a JSON object.
    public func send(_ line: String) throws -> [String: Any] {
        let bytes = Array((line + "\n").utf8)
        guard write(socket, bytes, bytes.count) == bytes.count else { throw ProbeError("could not write to the control socket") }
        var answer = Data()
        var byte: UInt8 = 0
        while read(socket, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            answer.append(byte)
        }
        guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
            throw ProbeError("the answer is not a JSON object: \(String(decoding: answer, as: UTF8.self))")
        }
        return object
    }

    /// Asks for the status until the session has run for `seconds`.
    public func waitUntilElapsed(_ seconds: Double, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while (try send(#"{"command":"status"}"#)["elapsed"] as? Double ?? 0) < seconds {
            guard Date() < deadline else { throw ProbeError("the session did not reach \(seconds) s within \(timeout) s") }
            usleep(20_000)
        }
    }
}
