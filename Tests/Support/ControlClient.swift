import Foundation

/// A client of pipcam's `--control` socket: writes one JSON line, reads the one-line answer.
public final class ControlClient {
    private let socket: Int32

    /// Connects to `path`, waiting up to `timeout` seconds for pipcam to create it. A read gives up
    /// after `answerTimeout` seconds without a byte.
    public init(path: String, timeout: Double = 20, answerTimeout: Int = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let candidate = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            if Self.withAddress(path, { connect(candidate, $0, $1) }) == 0 {
                var bound = timeval(tv_sec: answerTimeout, tv_usec: 0)
                setsockopt(candidate, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
                socket = candidate
                return
            }
            close(candidate)
            guard Date() < deadline else { throw ProbeError("no control socket at \(path) within \(timeout) s") }
            usleep(50_000)
        }
    }

    deinit { close(socket) }

    /// Calls `body` with `path` as a Unix socket address (at most 107 bytes), for connect or bind.
    public static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Sends `line` and returns the answer as a JSON object.
    public func send(_ line: String) throws -> [String: Any] {
        try write(line + "\n")
        let answer = readLine()
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            throw ProbeError("the answer is not a JSON object: \(answer)")
        }
        return object
    }

    /// Writes `text` as it is: several lines, blank ones, no newline at all.
    public func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.write(socket, bytes, bytes.count) == bytes.count else { throw ProbeError("could not write to the control socket") }
    }

    /// The next line the socket sends, without its newline; what came before the socket closed, if it did.
    public func readLine() -> String {
        var line = Data()
        var byte: UInt8 = 0
        while read(socket, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
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
