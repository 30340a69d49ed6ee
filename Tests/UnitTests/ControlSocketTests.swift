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
            let client = try ControlClient(path: path, timeout: 5, answerTimeout: 10)
            try client.write("slow 20\n  slow 5 \n\nslow 0\n")
            return (0..<3).map { _ in client.readLine() }
        }
        XCTAssertEqual(answers, ["slow 20", "slow 5", "slow 0"].map { Self.heard($0) }, "in order, blank lines skipped")

        let before = Self.threads()
        let counts = try await onAThread {
            let clients = try (0..<40).map { _ in try ControlClient(path: path, timeout: 5, answerTimeout: 10) }
            for (index, client) in clients.enumerated() { try client.write("client \(index)\n") }
            let heard = clients.enumerated().filter { $1.readLine() == Self.heard("client \($0)") }.count
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
        XCTAssertEqual(ControlClient.withAddress(stale) { bind(left, $0, $1) }, 0)
        close(left)
        let replacing = try await ControlSocket(path: stale) { .refused($0) }
        defer { replacing.close() }
        let echoed = try await onAThread {
            let client = try ControlClient(path: stale, timeout: 5, answerTimeout: 10)
            try client.write("hello\n")
            return client.readLine()
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

    /// A line longer than any command (over a MiB without a newline) ends that client, not the socket:
    /// the next client is answered.
    func testALineOverTheLimitEndsItsClientAlone() async throws {
        let path = try Paths.scratch("control-socket-long") + "/control"
        let socket = try await ControlSocket(path: path) { .carriedOut(["heard": .string($0)]) }
        defer { socket.close() }
        let (sent, after) = try await onAThread {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            guard ControlClient.withAddress(path, { connect(fd, $0, $1) }) == 0 else { throw ProbeError("no control socket at \(path)") }
            var bound = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            var sent = 0
            while sent <= 2 << 20, send(fd, chunk, chunk.count, Int32(MSG_NOSIGNAL)) == chunk.count { sent += chunk.count }
            var byte: UInt8 = 0
            return (sent, read(fd, &byte, 1))
        }
        XCTAssertGreaterThan(sent, 1 << 20, "the socket read past the limit before it let the client go")
        XCTAssertEqual(after, 0, "the client was let go without an answer (not kept waiting)")
        let answer = try await onAThread {
            let client = try ControlClient(path: path, timeout: 5, answerTimeout: 10)
            try client.write("next\n")
            return client.readLine()
        }
        XCTAssertEqual(answer, Self.heard("next"))
    }

    /// Clients that connect just as the socket closes are let go with it, and the process goes on: a
    /// socket opened afterwards answers. (An accepted client that no task took once ended the process.)
    func testClientsConnectingAsTheSocketClosesAreLetGo() async throws {
        let folder = try Paths.scratch("control-socket-closing")
        var connected = 0
        for round in 0..<200 {
            let path = folder + "/control-\(round)"
            let socket = try await ControlSocket(path: path) { .carriedOut(["heard": .string($0)]) }
            // One client is waiting to be taken when the socket closes; seven more race the close.
            connected += try await onAThread { Self.connectEach(1, to: path) }
            async let racing = onAThread { Self.connectEach(7, to: path) }
            socket.close()
            _ = try await racing
        }
        XCTAssertEqual(connected, 200, "a client connected before each close")
        let path = folder + "/control"
        let socket = try await ControlSocket(path: path) { .carriedOut(["heard": .string($0)]) }
        defer { socket.close() }
        let answer = try await onAThread {
            let client = try ControlClient(path: path, timeout: 5, answerTimeout: 10)
            try client.write("still here\n")
            return client.readLine()
        }
        XCTAssertEqual(answer, Self.heard("still here"))
    }

    /// Tries `count` connections to `path`, each once, and closes them; says how many connected.
    private static func connectEach(_ count: Int, to path: String) -> Int {
        let sockets = (0..<count).map { _ in Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0) }
        let connected = sockets.filter { socket in ControlClient.withAddress(path) { connect(socket, $0, $1) } == 0 }.count
        sockets.forEach { close($0) }
        return connected
    }

    /// The echoing handler's answer to `line`.
    private static func heard(_ line: String) -> String { ControlAnswer.carriedOut(["heard": .string(line)]).line }

    /// Threads of this process now.
    private static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
