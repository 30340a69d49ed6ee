import Foundation
import Locking

/// `--control PATH`: a Unix domain socket for scripts. Each line a client writes is one command; each
/// gets one line back. Clients are served one line at a time each, in the order they write.
final class ControlSocket: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let handle: @Sendable (String) async -> String

    /// Listens at `path`. A socket left there by a pipcam that is gone is replaced; anything else is not.
    init(path: String, handle: @escaping @Sendable (String) async -> String) throws {
        self.path = path
        self.handle = handle
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw CLIError("the control socket path \(path) is too long (at most \(MemoryLayout.size(ofValue: address.sun_path) - 1) bytes)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        try Self.clearStale(path, address: address)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw CLIError("cannot create the control socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw CLIError("cannot listen on the control socket \(path): \(reason)")
        }
        NamedThread.start("pipcam-control") { [self] in acceptClients() }
    }

    /// Stops listening and removes the socket file.
    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        unlink(path)
    }

    private static func clearStale(_ path: String, address: sockaddr_un) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw CLIError("\(path) exists and is not a socket; choose another --control path") }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(probe) }
        var address = address
        let answered = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard answered != 0 else { throw CLIError("another program is listening on \(path); choose another --control path") }
        unlink(path)
    }

    private func acceptClients() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            NamedThread.start("pipcam-control-c") { [self] in serve(client) }
        }
    }

    /// Reads lines until the client hangs up; answers each before reading the next.
    private func serve(_ client: Int32) {
        defer { Glibc.close(client) }
        var pending = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(client, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            pending.append(contentsOf: chunk[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                pending.removeSubrange(pending.startIndex...newline)
                guard !line.isEmpty else { continue }
                guard send(client, Array((answer(line) + "\n").utf8)) else { return }
            }
        }
    }

    /// Waits on this thread for the answer, which is worked out on Swift's concurrency threads.
    private func answer(_ line: String) -> String {
        let answer = Locked(""), done = DispatchSemaphore(value: 0)
        let handle = self.handle
        Task {
            let text = await handle(line)
            answer.withValue { $0 = text }
            done.signal()
        }
        done.wait()
        return answer.value
    }

    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
