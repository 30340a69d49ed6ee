import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The other ends of pipcam's web page, for its tests: a plain HTTP client on a socket of its own (so a
/// test can send what no library would: a bad method, a megabyte of header, half a request), a WebSocket
/// client and a headless browser (Python programs in Tests/Programs), Prometheus's parser, and Prometheus
/// itself scraping pipcam. Everything talks to 127.0.0.1 only.
public enum WebClients {
    /// What the web tests run, for the package test: programs, and the Python modules' files.
    public static var programs: [String] {
        ["chromium", "chromedriver", "prometheus", "/usr/lib/python3/dist-packages/selenium/__init__.py",
         "/usr/lib/python3/dist-packages/websocket/__init__.py", "/usr/lib/python3/dist-packages/prometheus_client/__init__.py"]
    }

    /// Waits until `command` (a pipcam) listens on `port`, as /proc tells.
    public static func waitUntilServing(_ command: RunningCommand, port: Int) throws {
        try MediaServers.wait(for: "the web page", of: command) { MediaServers.holds(command, port: port, udp: false) }
    }

    /// Runs one of Tests/Programs' Python programs with Debian's Python (its modules are Debian's).
    public static func python(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try Command.run(["/usr/bin/python3", "\(Paths.repository)/Tests/Programs/\(program)"] + arguments, environment: environment)
    }
}

/// An HTTP response as read off the socket.
public struct WebResponse: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: Data
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    public func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw ProbeError("not a JSON object: \(text)") }
        return object
    }
}

/// One connection to 127.0.0.1, with a bound on every read.
public final class RawConnection {
    private let socket: Int32

    public init(port: Int, timeout: Double = 10) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw ProbeError("cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(socket) }

    /// Writes all of `bytes`; false when the other end has closed.
    @discardableResult
    public func send(_ bytes: Data) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Reads until the other end closes, `limit` bytes have come, or a read waits longer than the timeout.
    public func readAll(limit: Int = 16 << 20) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while data.count < limit {
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }

    /// What one read gives: empty when the other end has closed or the read timed out.
    public func readSome() -> Data {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &chunk, chunk.count, 0)
        return count > 0 ? Data(chunk[0..<count]) : Data()
    }

    /// Whether the other end has closed the connection (a read gives end of file at once).
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }
}

public enum WebClient {
    /// A GET on a connection of its own.
    public static func request(_ port: Int, _ path: String, headers: [String: String] = [:], body: String? = nil, host: String? = nil) throws -> WebResponse {
        try request(port, "GET", path, headers: headers, body: body, host: host)
    }

    /// One request on a connection of its own (`Connection: close`), and its response.
    public static func request(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                               body: String? = nil, host: String? = nil) throws -> WebResponse {
        let connection = try RawConnection(port: port)
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"]
        for (name, value) in headers { lines.append("\(name): \(value)") }
        if let body { lines.append("Content-Length: \(Data(body.utf8).count)") }
        connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? ""))
        return try parse(connection.readAll())
    }

    /// The status, headers and body of a response (a body of known length, or chunked, or up to the close).
    public static func parse(_ data: Data) throws -> WebResponse {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw ProbeError("no complete response: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let statusParts = head.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ProbeError("no status line: \(head.first ?? "")") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return WebResponse(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var result = Data(), rest = data[...]
        while let line = rest.range(of: Data("\r\n".utf8)), let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16), size > 0 {
            let start = line.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
            result.append(rest[start..<rest.index(start, offsetBy: size)])
            rest = rest[rest.index(start, offsetBy: min(size + 2, rest.distance(from: start, to: rest.endIndex)))...]
        }
        return result
    }

    /// Asks for the status until the session has run for `seconds`.
    public static func waitUntilElapsed(_ port: Int, _ seconds: Double, headers: [String: String] = [:], timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while (try request(port, "/api/status", headers: headers).json()["elapsed"] as? Double ?? 0) < seconds {
            guard Date() < deadline else { throw ProbeError("the session did not reach \(seconds) s within \(timeout) s") }
            usleep(50_000)
        }
    }

    /// The first `count` JPEG pictures of the live view, or those that came within `seconds`.
    public static func livePictures(_ port: Int, count: Int = 5, within seconds: Double = 15, headers: [String: String] = [:]) throws -> [Data] {
        let connection = try RawConnection(port: port, timeout: seconds)
        var lines = ["GET /live.mjpeg HTTP/1.1", "Host: 127.0.0.1:\(port)"]
        for (name, value) in headers { lines.append("\(name): \(value)") }
        connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
        let deadline = Date().addingTimeInterval(seconds)
        var data = Data()
        var pictures: [Data] = []
        while pictures.count < count, Date() < deadline {
            let more = connection.readSome()
            if more.isEmpty { break }
            data.append(more)
            pictures = Self.jpegs(in: data)
        }
        return Array(pictures.prefix(count))
    }

    /// Each whole JPEG (start to end marker) in `data`.
    private static func jpegs(in data: Data) -> [Data] {
        var pictures: [Data] = []
        var rest = data[...]
        while let start = rest.range(of: Data([0xFF, 0xD8, 0xFF])), let end = rest[start.lowerBound...].range(of: Data([0xFF, 0xD9])) {
            pictures.append(Data(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return pictures
    }
}

/// Debian's Prometheus, started on 127.0.0.1 in a scratch folder to scrape its targets every second.
public final class PrometheusServer {
    public let port: Int
    private let command: RunningCommand
    /// `ip netns exec NAME` when it runs in a network namespace of a test's own: it is asked from there.
    private let launcher: [String]

    public convenience init(scraping target: Int, folder: String) throws {
        try self.init(scraping: ["127.0.0.1:\(target)"], folder: folder)
    }

    /// Scrapes each of `targets` ("10.0.0.2:8080"), with the bearer token in `tokenFile` when given.
    public init(scraping targets: [String], folder: String, tokenFile: String? = nil, launcher: [String] = []) throws {
        port = freeLocalPort()
        self.launcher = launcher
        let authorization = tokenFile.map { "\n    authorization:\n      type: Bearer\n      credentials_file: \($0)" } ?? ""
        let configuration = """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
        scrape_configs:
          - job_name: pipcam\(authorization)
            static_configs:
              - targets: [\(targets.map { "'\($0)'" }.joined(separator: ", "))]
        """
        try configuration.write(toFile: "\(folder)/prometheus.yml", atomically: true, encoding: .utf8)
        command = try Command.start(launcher + [MediaServers.locate("prometheus") ?? "prometheus", "--config.file=\(folder)/prometheus.yml",
                                                "--storage.tsdb.path=\(folder)/data", "--web.listen-address=127.0.0.1:\(port)"])
        try MediaServers.wait(for: "prometheus", of: command) { MediaServers.holds(command, port: port, udp: false) }
    }

    deinit { _ = command.end(with: SIGTERM) }

    /// The value of `query` now, when it has one.
    public func value(_ query: String) throws -> Double? {
        try values(query).first?.value
    }

    /// Each series `query` gives now: its labels, and its value.
    public func values(_ query: String) throws -> [(labels: [String: String], value: Double)] {
        let escaped = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let answer: [String: Any]
        if launcher.isEmpty {
            answer = try WebClient.request(port, "/api/v1/query?query=\(escaped)").json()
        } else {
            // From inside its namespace: the test's own is not on that network.
            let fetch = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())"
            let result = try Command.run(launcher + ["/usr/bin/python3", "-c", fetch, "http://127.0.0.1:\(port)/api/v1/query?query=\(escaped)"])
            answer = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]) ?? [:]
        }
        guard let data = answer["data"] as? [String: Any], let results = data["result"] as? [[String: Any]] else { return [] }
        return results.compactMap { result in
            guard let value = result["value"] as? [Any], value.count == 2, let text = value[1] as? String, let number = Double(text) else { return nil }
            return (result["metric"] as? [String: String] ?? [:], number)
        }
    }
}
