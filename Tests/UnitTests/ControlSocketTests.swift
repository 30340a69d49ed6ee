import Capture
import Foundation
import PipcamTestSupport
import WebRemote
import XCTest

/// The control socket on its own, with a handler that echoes: the line protocol scripts rely on, many
/// clients at once on the event loops (no thread each), and what it does with the path it is given.
final class ControlSocketTests: XCTestCase {
    /// Lines written at once are answered in the order written, though the first takes longest; forty
    /// clients connected together are each answered, and the process gains no thread for them.
    func testEachClientIsAnsweredInOrderAndManyAtOnceNeedNoThreadEach() async throws {
        let path = try Paths.scratch("control-socket") + "/control"
        let socket = try await ControlSocket(path: path) { line in
            // "slow N": answered after N tens of milliseconds.
            if line.hasPrefix("slow "), let tens = Int(line.dropFirst(5)) { try? await Task.sleep(for: .milliseconds(10 * tens)) }
            return .carriedOut(["heard": .string(line)])
        }
        defer { socket.close() }
        let answers = try await onAThread {
            let client = try RawClient(path: path)
            try client.write("slow 20\n  slow 5 \n\nslow 0\n")
            return try (0..<3).map { _ in try client.readLine() }
        }
        XCTAssertEqual(answers, ["slow 20", "slow 5", "slow 0"].map { Self.heard($0) }, "in order, blank lines skipped")

        let before = Self.threads()
        let counts = try await onAThread {
            let clients = try (0..<40).map { _ in try RawClient(path: path) }
            for (index, client) in clients.enumerated() { try client.write("client \(index)\n") }
            let heard = try clients.enumerated().filter { try $1.readLine() == Self.heard("client \($0)") }.count
            return (heard, Self.threads())
        }
        XCTAssertEqual(counts.0, 40, "each client heard back")
        XCTAssertLessThan(counts.1 - before, 10, "threads: \(before) before 40 clients, \(counts.1) with them")
    }

    /// A socket left by a pipcam that is gone is replaced; a live one, a file of another kind, a path
    /// too long and a folder that is not there are each refused in one line naming the path.
    func testTheSocketsPathIsCheckedAndAStaleOneReplaced() async throws {
        let folder = try Paths.scratch("control-socket-path")
        let stale = folder + "/stale"
        let left = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(RawClient.withAddress(stale) { bind(left, $0, $1) }, 0)
        close(left)
        let replacing = try await ControlSocket(path: stale) { .refused($0) }
        defer { replacing.close() }
        let echoed = try await onAThread {
            let client = try RawClient(path: stale)
            try client.write("hello\n")
            return try client.readLine()
        }
        XCTAssertEqual(echoed, #"{"error":"hello","ok":false}"#)

        try "x".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
        let refusals = [
            (stale, "another program is listening on \(stale)"),
            (folder + "/file", "\(folder)/file exists and is not a socket"),
            (folder + "/" + String(repeating: "x", count: 120), "is too long (at most 107 bytes)"),
            (folder + "/missing/control", "cannot listen on the control socket \(folder)/missing/control: No such file or directory"),
        ]
        for (path, said) in refusals {
            do {
                let socket = try await ControlSocket(path: path) { .refused($0) }
                socket.close()
                XCTFail("\(path) taken")
            } catch {
                XCTAssertTrue("\(error)".contains(said), "\(path): \(error)")
                XCTAssertFalse("\(error)".contains("\n"), "one line")
            }
        }
    }

    /// The echoing handler's answer to `line`.
    private static func heard(_ line: String) -> String { ControlAnswer.carriedOut(["heard": .string(line)]).line }

    /// Threads of this process now.
    private static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// Runs blocking socket calls off Swift's concurrency threads, which the socket's answers need.
    private func onAThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result(catching: body)) }.start()
        }
    }
}

/// A plain client: writes bytes as given, reads one line at a time.
private final class RawClient: @unchecked Sendable {
    private let socket: Int32

    init(path: String) throws {
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard Self.withAddress(path, { connect(socket, $0, $1) }) == 0 else { throw ProbeError("cannot connect to \(path)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.write(socket, bytes, bytes.count) == bytes.count else { throw ProbeError("could not write") }
    }

    /// One line without its newline; fails after ten seconds without one.
    func readLine() throws -> String {
        var line = Data()
        var byte: UInt8 = 0
        while true {
            guard read(socket, &byte, 1) == 1 else { throw ProbeError("no answer line (read so far: \(String(decoding: line, as: UTF8.self)))") }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }
}
