import Foundation
import PipcamTestSupport
import XCTest

/// Requests written to break the web page, sent while it records: they get an error or a closed
/// connection, never a crash, never a stall of the recording, and the page answers after them all.
final class WebHostileTests: XCTestCase {
    private let demo = "\(Paths.repository)/pipelines/demo.yaml"

    func testHostileRequestsCostTheRecordingNothingAndThePageStillAnswers() throws {
        let (file, port, record) = try recordServing("web-hostile", seconds: 10)
        defer { record.signal(SIGKILL) }
        try WebClient.waitUntilElapsed(port, 0.5)

        var sent = 0
        // Connections that open and never speak, and requests that stop half way, held open throughout.
        var held: [RawConnection] = []
        for index in 0..<10 {
            let connection = try RawConnection(port: port, timeout: 30)
            if index % 2 == 1 { connection.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
            held.append(connection)
            sent += 1
        }
        // Methods, request lines and bytes that are not HTTP.
        let lines = ["BREW / HTTP/1.1", "DELETE /api/command HTTP/1.1", "PUT /metrics HTTP/1.1", "TRACE / HTTP/1.1", "GET / HTTP/9.9",
                     "GET  HTTP/1.1", "\u{0}\u{1}\u{2}\u{3}", "GET /\u{7F}\u{1B}[31m HTTP/1.1", "OPTIONS * HTTP/1.1", "CONNECT 127.0.0.1:22 HTTP/1.1"]
        for line in lines {
            let answer = try raw(port, line + "\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            if let status = answer.status { XCTAssertTrue((400..<500).contains(status) || status == 200 && line.hasPrefix("GET / "), "\(line): \(status)") }
            sent += 1
        }
        // Paths out of the page: none reaches a file.
        for path in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api/../../../etc/passwd", "//etc/passwd", "/live.mjpeg/../../etc/passwd",
                     "/..%2f..%2fetc%2fpasswd", "/%00", "/api/status%00.html", "/\(String(repeating: "a/", count: 2000))", "/?\(String(repeating: "x=1&", count: 2000))"] {
            let answer = try WebClient.request(port, path)
            XCTAssertFalse(answer.text.contains("root:"), path)
            XCTAssertTrue([200, 400, 404].contains(answer.status), "\(path.prefix(40)): \(answer.status)")
            sent += 1
        }
        // A megabyte of header, many headers, and bodies beyond the limit.
        for headers in ["X-Big: " + String(repeating: "a", count: 1 << 20), (0..<5000).map { "X-\($0): 1" }.joined(separator: "\r\n"),
                        "Cookie: " + String(repeating: "c=1; ", count: 200_000)] {
            let answer = try raw(port, "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(answer.status == nil || (400..<500).contains(answer.status!), "huge headers: \(answer.status.map(String.init) ?? "closed")")
            sent += 1
        }
        for length in [1 << 20, 10 << 20, 1 << 30] {
            let connection = try RawConnection(port: port)
            connection.send("POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n")
            connection.send(Data(repeating: UInt8(ascii: "{"), count: min(length, 1 << 20)))
            let answer = try? WebClient.parse(connection.readAll())
            XCTAssertTrue(answer == nil || answer!.status == 413 || answer!.status == 400, "a body of \(length) bytes: \(answer.map { String($0.status) } ?? "closed")")
            sent += 1
        }
        for body in ["5\r\nhello\r\nZZ\r\n", "ffffffffffffffff\r\n", "-1\r\n\r\n"] {
            let answer = try raw(port, "POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\(body)")
            XCTAssertEqual(answer.status, 411, "a command's length is given: \(body)")
            sent += 1
        }
        // Commands that are not commands.
        for command in ["", "{", "[]", "null", #"{"command":1}"#, #"{"command":"swap","id":{"a":[[[[[]]]]]}}"#, #"{"command":"mute","id":"nobody"}"#,
                        #"{"command":"control","camera":"front","set":{"zoom":"\u0000"}}"#, String(repeating: "[", count: 50_000), #"{"command":"record"}"#,
                        "{\"command\":\"swap\"}\n{\"command\":\"stop\"}", #"{"command":"layout","kind":"<script>alert(1)</script>"}"#] {
            let answer = try WebClient.request(port, "POST", "/api/command", headers: ["Content-Type": "application/json"], body: command)
            XCTAssertEqual(answer.status, 400, "\(command.prefix(40)): \(answer.text.prefix(200))")
            sent += 1
        }
        // Many connections at once, each asking once.
        let crowd = try (0..<12).map { _ in try RawConnection(port: port) }
        for connection in crowd { connection.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n") }
        for connection in crowd { XCTAssertEqual(try? WebClient.parse(connection.readAll()).status, 200) }
        sent += crowd.count
        XCTAssertGreaterThanOrEqual(sent, 50)

        let page = try WebClient.request(port, "/")
        XCTAssertEqual(page.status, 200, "the page answers with every hostile connection still open")
        XCTAssertEqual(try WebClient.request(port, "/api/status").json()["recording"] as? Bool, true)
        XCTAssertTrue(held[0].isClosedByPeer(), "a connection that never speaks is closed")
        XCTAssertTrue(held[1].isClosedByPeer(), "and one that stops half way through its head")
        held.removeAll()

        let result = record.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 300, accuracy: 1, "10 s at 30 a second: every picture")
        XCTAssertTrue(result.output.contains(", 0 dropped"), result.output)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: file), "")
    }

    /// Connections that open and never send a whole request head, 64 (the server's limit) and then 500,
    /// held open: the status still answers within a second, again and again, with no token involved.
    func testHalfOpenConnectionsNeverKeepTheStatusFromAnswering() throws {
        let (_, port, record) = try recordServing("web-half-open", seconds: 30)
        defer { record.signal(SIGKILL) }
        var held: [RawConnection] = []
        for count in [64, 500] {
            while held.count < count {
                let connection = try RawConnection(port: port, timeout: 30)
                // Half of them begin a head and never finish it.
                if held.count % 2 == 1 { connection.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
                held.append(connection)
            }
            for _ in 0..<3 {
                let asked = ContinuousClock.now
                let answer = try WebClient.request(port, "/api/status")
                let took = ContinuousClock.now - asked
                XCTAssertEqual(answer.status, 200, "with \(count) half-open connections")
                XCTAssertLessThan(took, .seconds(1), "with \(count) half-open connections")
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        held.removeAll()
        record.signal(SIGINT)
        XCTAssertEqual(record.wait().status, 0)
    }

    /// The demo recorded for `seconds` into a folder of its own, with the page on a free port, once it serves.
    private func recordServing(_ name: String, seconds: Int) throws -> (file: String, port: Int, record: RunningCommand) {
        let file = try Paths.scratch(name) + "/out.mkv"
        let port = freeLocalPort()
        let record = try Command.start([Paths.pipcam, "record", file, "--pipeline", demo, "--preset", "low", "--duration", String(seconds),
                                        "--web", "127.0.0.1:\(port)"])
        do { try WebClients.waitUntilServing(record, port: port) } catch {
            record.signal(SIGKILL)
            throw error
        }
        return (file, port, record)
    }

    /// Sends `text` on a connection of its own; the answer's status, or nil when the connection was closed.
    private func raw(_ port: Int, _ text: String) throws -> (status: Int?, text: String) {
        let connection = try RawConnection(port: port)
        connection.send(text)
        let answer = try? WebClient.parse(connection.readAll())
        return (answer?.status, answer?.text ?? "")
    }
}
