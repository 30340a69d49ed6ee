import Foundation
import PipcamTestSupport
import XCTest

/// The web page and its API as a user's browser, script and monitoring reach them: `pipcam serve`
/// recording on command, `record --web`, the WebSocket, the metrics scraped by a real Prometheus, and the
/// token off loopback. Every request goes to 127.0.0.1.
final class WebPageTests: XCTestCase {
    private let demo = "\(Paths.repository)/pipelines/demo.yaml"

    /// Starts pipcam and waits until its page listens on `port`.
    private func start(_ arguments: [String], port: Int, environment: [String: String] = [:]) throws -> RunningCommand {
        let command = try Command.start([Paths.pipcam] + arguments, environment: environment)
        try WebClients.waitUntilServing(command, port: port)
        return command
    }

    private func post(_ port: Int, _ command: String, headers: [String: String] = [:]) throws -> WebResponse {
        try WebClient.request(port, "POST", "/api/command", headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: command)
    }

    func testServeRecordsOnCommandIntoFilesNamedByTheirStartTime() throws {
        let folder = try Paths.scratch("serve")
        let port = freeLocalPort()
        let serve = try start(["serve", "--pipeline", demo, "--preset", "low", "--folder", folder, "--listen", "127.0.0.1:\(port)"], port: port)
        defer { serve.signal(SIGKILL) }

        let idle = try WebClient.request(port, "/api/status").json()
        XCTAssertEqual(idle["recording"] as? Bool, false, "\(idle)")
        XCTAssertEqual(Set((idle["microphones"] as? [String: Bool] ?? [:]).keys), ["voice", "room"], "the microphones are heard between recordings: \(idle)")
        XCTAssertGreaterThanOrEqual(try WebClient.livePictures(port, count: 5).count, 5, "the live picture between recordings")

        let started = try post(port, #"{"command":"record"}"#)
        XCTAssertEqual(started.status, 200, started.text)
        let first = try XCTUnwrap(try started.json()["started"] as? String)
        XCTAssertEqual(URL(fileURLWithPath: first).deletingLastPathComponent().path, folder)
        XCTAssertNotNil(URL(fileURLWithPath: first).lastPathComponent.range(of: #"^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d(-\d+)?\.mkv$"#, options: .regularExpression), first)
        let again = try post(port, #"{"command":"record"}"#)
        XCTAssertEqual(again.status, 400)
        XCTAssertTrue(again.text.contains("already recording"), again.text)

        try WebClient.waitUntilElapsed(port, 2)
        let stopped = try post(port, #"{"command":"stop"}"#)
        XCTAssertEqual(stopped.status, 200, stopped.text)
        XCTAssertEqual(try stopped.json()["finished"] as? String, first)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: first), "", "the first recording is finished when stop answers")
        XCTAssertGreaterThan(try MediaProbe.videoFrameCount(path: first), 50)
        XCTAssertTrue(try post(port, #"{"command":"stop"}"#).text.contains("nothing is being recorded"))
        XCTAssertEqual(try WebClient.request(port, "/api/status").json()["recording"] as? Bool, false)

        let second = try XCTUnwrap(try post(port, #"{"command":"record"}"#).json()["started"] as? String)
        XCTAssertNotEqual(second, first)
        try WebClient.waitUntilElapsed(port, 1)
        serve.signal(SIGTERM)
        let result = serve.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: second), "", "SIGTERM finishes the recording under way")
        XCTAssertGreaterThan(try MediaProbe.videoFrameCount(path: second), 20)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mkv") }.count, 2)
    }

    func testAWebSocketCarriesCommandsAndGetsStatusAndEventsAsTheyHappen() throws {
        let file = try Paths.scratch("web-socket") + "/out.mkv"
        let port = freeLocalPort()
        let record = try start(["record", file, "--pipeline", demo, "--preset", "low", "--web", "127.0.0.1:\(port)"], port: port)
        defer { record.signal(SIGKILL) }

        let client = try WebClients.python("web-socket-client.py", [String(port), "4", #"{"command":"swap"}"#])
        XCTAssertEqual(client.status, 0, client.error)
        let messages = client.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(messages.first?["ok"] as? Bool, true, "the status first: \(client.output.prefix(300))")
        XCTAssertTrue(messages.contains { $0["ok"] as? Bool == true && $0["main"] as? String == "side" }, "the swap's answer")
        XCTAssertGreaterThanOrEqual(messages.filter { $0["ok"] as? Bool == true && $0["elapsed"] != nil }.count, 3, "the status each second")
        XCTAssertGreaterThanOrEqual(messages.filter { $0["event"] as? String == "pressure" }.count, 2, "events as they happen")
        let levels = messages.filter { $0["event"] as? String == "levels" }.compactMap { $0["levels"] as? [String: Any] }
        XCTAssertGreaterThanOrEqual(levels.count, 20, "the meters ten times a second")
        XCTAssertEqual(Set(levels.last?.keys.map { $0 } ?? []), ["voice", "room"])

        let foreign = try WebClients.python("web-socket-client.py", [String(port), "1", "--origin", "http://pages.example"])
        XCTAssertEqual(foreign.output.trimmingCharacters(in: .whitespacesAndNewlines), #"{"refused": 403}"#, "another site's page: \(foreign.output) \(foreign.error)")
        let rebound = try WebClient.request(port, "/api/status", host: "pages.example:\(port)")
        XCTAssertEqual(rebound.status, 403, "a name that is not this machine's, on loopback")
        let embedded = try WebClient.request(port, "/live.mjpeg", headers: ["Sec-Fetch-Site": "cross-site"])
        XCTAssertEqual(embedded.status, 403, "the live picture as an image of another site's page")

        record.signal(SIGINT)
        let result = record.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: file), "")
    }

    func testPreviewWithoutADisplayPreviewsOnThePageAlone() throws {
        let port = freeLocalPort()
        let preview = try start(["preview", "--pipeline", demo, "--preset", "low", "--web", "127.0.0.1:\(port)"], port: port,
                                environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        defer { preview.signal(SIGKILL) }
        let status = try WebClient.request(port, "/api/status").json()
        XCTAssertEqual(status["recording"] as? Bool, false, "\(status)")
        let pictures = try WebClient.livePictures(port, count: 5)
        XCTAssertGreaterThanOrEqual(pictures.count, 5)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(port).jpg").path
        try XCTUnwrap(pictures.last).write(to: URL(fileURLWithPath: file))
        let picture = try DecodedFrame(image: file)
        XCTAssertEqual([picture.width, picture.height], [640, 360])
        XCTAssertGreaterThan(picture.fraction(x: 20, y: 60, width: 380, height: 150) { TestColors.bar($0) != nil }, 0.8, "the bars, as recorded")
        XCTAssertEqual(TestColors.barsAreMirrored(TestColors.bars(in: picture, row: 150, x: 0, width: 640)), false,
                       "the page shows the front camera as it is recorded, not mirrored as a selfie window would")
        XCTAssertTrue(try post(port, #"{"command":"record"}"#).text.contains("only previews"))
        XCTAssertEqual(try post(port, #"{"command":"stop"}"#).status, 200)
        let result = preview.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.error.contains("on the web page alone"), result.error)
    }

    func testMetricsParseWithPrometheusOwnParserAndPrometheusScrapesThem() throws {
        let folder = try Paths.scratch("metrics")
        let port = freeLocalPort()
        let record = try start(["record", "\(folder)/out.mkv", "--pipeline", demo, "--preset", "low", "--web", "127.0.0.1:\(port)"], port: port)
        defer { record.signal(SIGKILL) }
        try WebClient.waitUntilElapsed(port, 2)

        let metrics = try WebClient.request(port, "/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true, "\(metrics.headers)")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(port).txt").path
        try metrics.body.write(to: URL(fileURLWithPath: input))
        let parsed = try Command.run(["sh", "-c", "/usr/bin/python3 '\(Paths.repository)/Tests/Programs/parse-metrics.py' < '\(input)'"])
        XCTAssertEqual(parsed.status, 0, parsed.error)
        var samples: [String: Double] = [:]
        for line in parsed.output.split(separator: "\n") {
            let sample = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let labels = (sample["labels"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            samples["\(sample["name"] as? String ?? "")\(labels.isEmpty ? "" : "{\(labels)}")"] = sample["value"] as? Double
        }
        XCTAssertEqual(samples["pipcam_recording"], 1)
        XCTAssertGreaterThanOrEqual(samples["pipcam_recording_seconds"] ?? 0, 2)
        XCTAssertGreaterThan(samples["pipcam_file_bytes"] ?? 0, 0)
        XCTAssertGreaterThan(samples["pipcam_free_disk_bytes"] ?? 0, 0)
        XCTAssertEqual(samples["pipcam_pictures_dropped_total"], 0)
        XCTAssertEqual(samples["pipcam_device_losses_total{input=front}"], 0)
        XCTAssertEqual(samples["pipcam_device_lost{input=side}"], 0)

        let prometheus = try PrometheusServer(scraping: port, folder: folder)
        try waitFor(within: 20, "Prometheus to scrape pipcam") { (try? prometheus.value("pipcam_recording")) == 1 }
        XCTAssertEqual(try prometheus.value("up"), 1)
        XCTAssertGreaterThanOrEqual(try prometheus.value("pipcam_recording_seconds") ?? 0, 2)

        record.signal(SIGINT)
        XCTAssertEqual(record.wait().status, 0)
    }

    func testOffLoopbackEveryPathNeedsTheTokenMadeAtFirstStart() throws {
        let folder = try Paths.scratch("token")
        let environment = ["XDG_CONFIG_HOME": folder + "/config"]
        let port = freeLocalPort()
        let record = try start(["record", "\(folder)/out.mkv", "--pipeline", demo, "--preset", "low", "--web", "0.0.0.0:\(port)"], port: port, environment: environment)
        defer { record.signal(SIGKILL) }
        let tokenFile = folder + "/config/pipcam/web-token"
        let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int, 0o600)
        XCTAssertGreaterThanOrEqual(token.count, 40)

        for (method, path) in [("GET", "/"), ("GET", "/api/status"), ("POST", "/api/command"), ("GET", "/metrics"), ("GET", "/live.mjpeg"), ("GET", "/page.js"), ("GET", "/nothing")] {
            let refused = try WebClient.request(port, method, path, body: method == "POST" ? #"{"command":"swap"}"# : nil)
            XCTAssertEqual(refused.status, 401, "\(method) \(path) without the token")
            let wrong = try WebClient.request(port, method, path, headers: ["Authorization": "Bearer not-\(token)"])
            XCTAssertEqual(wrong.status, 401, "\(method) \(path) with another token")
        }
        let form = try WebClient.request(port, "/")
        XCTAssertTrue(form.text.contains("<form method=post action=/login>"), "a browser gets the login form")
        XCTAssertEqual(form.headers["content-security-policy"].map { $0.contains("unsafe-inline") }, false, "nothing inline runs")
        let looks = try WebClient.request(port, "/page.css")
        XCTAssertEqual(looks.status, 200, "the login form's looks without the token")
        XCTAssertTrue(looks.headers["content-type"]?.hasPrefix("text/css") == true)
        let socket = try WebClients.python("web-socket-client.py", [String(port), "1"])
        XCTAssertEqual(socket.output.trimmingCharacters(in: .whitespacesAndNewlines), #"{"refused": 401}"#, socket.error)

        let bearer = ["Authorization": "Bearer \(token)"]
        XCTAssertEqual(try WebClient.request(port, "/api/status", headers: bearer).status, 200)
        XCTAssertEqual(try WebClient.request(port, "/metrics", headers: bearer).status, 200)
        XCTAssertEqual(try WebClient.livePictures(port, count: 2, headers: bearer).count, 2)
        let admitted = try WebClients.python("web-socket-client.py", [String(port), "1", "--header", "Authorization: Bearer \(token)"])
        XCTAssertTrue(admitted.output.hasPrefix(#"{"#) && !admitted.output.contains("refused"), admitted.output)

        let failedLogin = try WebClient.request(port, "POST", "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "token=guess")
        XCTAssertEqual(failedLogin.status, 401)
        let login = try WebClient.request(port, "POST", "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "token=\(token)")
        XCTAssertEqual(login.status, 303)
        let cookie = try XCTUnwrap(login.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        XCTAssertTrue(login.headers["set-cookie"]?.contains("HttpOnly") == true)
        XCTAssertEqual(try WebClient.request(port, "/api/status", headers: ["Cookie": cookie]).status, 200)

        XCTAssertEqual(try post(port, #"{"command":"stop"}"#, headers: bearer).status, 200)
        let result = record.wait()
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.error.contains(token), "the token is shown once, when it is made")
        XCTAssertEqual(result.error.components(separatedBy: token).count - 1, 1, "and only once")

        let secondPort = freeLocalPort()
        let second = try start(["record", "\(folder)/second.mkv", "--pipeline", demo, "--preset", "low", "--web", "0.0.0.0:\(secondPort)"], port: secondPort, environment: environment)
        defer { second.signal(SIGKILL) }
        XCTAssertEqual(try post(secondPort, #"{"command":"stop"}"#, headers: bearer).status, 200, "the same token at the next start")
        let secondResult = second.wait()
        XCTAssertEqual(secondResult.status, 0, secondResult.error)
        XCTAssertFalse(secondResult.error.contains(token), "never shown again: \(secondResult.error)")
    }

    func testAnAddressInUseOrMalformedIsOneLineAndNothingIsRecorded() throws {
        let folder = try Paths.scratch("web-address")
        // Another program holds the port.
        let (holder, port) = boundLocalSocket(listening: true)
        defer { close(holder) }
        for (web, said) in [("127.0.0.1:\(port)", "the address is in use"), ("127.0.0.1", "needs a port"), ("127.0.0.1:99999", "from 1 to 65535")] {
            let started = Date()
            let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", demo, "--web", web])
            XCTAssertNotEqual(result.status, 0, web)
            XCTAssertTrue(result.error.contains(said), "\(web): \(result.error)")
            XCTAssertEqual(result.error.split(separator: "\n").count, 1, result.error)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "within seconds")
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out.mkv"), "nothing recorded")
        }
    }

    func testATokenFileOthersCanReadIsRefused() throws {
        let folder = try Paths.scratch("token-mode")
        try FileManager.default.createDirectory(atPath: folder + "/config/pipcam", withIntermediateDirectories: true)
        try "a-token-that-is-long-enough-to-use\n".write(toFile: folder + "/config/pipcam/web-token", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/config/pipcam/web-token")
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", demo, "--web", "0.0.0.0:\(freeLocalPort())"],
                                     environment: ["XDG_CONFIG_HOME": folder + "/config"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("can be read by others (mode 644)"), result.error)
        XCTAssertEqual(result.error.split(separator: "\n").count, 1, result.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out.mkv"), "nothing recorded")
    }
}
