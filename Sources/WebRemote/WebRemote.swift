import Capture
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Locking
import Logging
import NIOCore

/// The web page and its API on a running session (`--web ADDRESS`): the page, `GET /api/status`,
/// `POST /api/command`, the WebSocket `/api/socket` (commands in; answers, events and the status each
/// second out) and `GET /metrics`. Commands are the control socket's, carried out by the function it is
/// given, so the page, scripts and keys change the session the same way.
public final class WebRemote: Sendable {
    /// The page's address, as a browser opens it.
    public let url: String
    private let server: Task<Void, any Error>
    private let broadcast: EventBroadcast
    private let metrics: SessionMetrics
    private let ticker: Task<Void, Never>

    /// Connections open at once; more wait to be accepted, so the page stays reachable for those already in.
    /// Those yet to send a request head hold at most `WaitingConnections.limit` of them.
    static let maximumConnections = 64
    /// A connection that sends nothing for this long between requests is closed (before its first
    /// request, `UpgradeGuard.headTimeout` bounds it).
    static let idleTimeout: TimeAmount = .seconds(20)
    /// The largest command or login form accepted.
    static let maximumBody = 64 * 1024

    /// Listens at `address` and serves until `stop()`. Refuses, in one line, an address in use or not on
    /// this machine. `token` is required off loopback.
    public init(address: WebAddress, token: WebToken?, session: CaptureSession,
                answer: @escaping ControlHandler) async throws {
        precondition(token != nil || address.isLoopback, "a web page off loopback needs a token")
        let broadcast = EventBroadcast(), metrics = SessionMetrics(session: session)
        self.broadcast = broadcast
        self.metrics = metrics
        let access = WebAccess(token: token)
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: WebAccessMiddleware(access: access))
        Self.addRoutes(to: router, token: token, session: session, metrics: metrics, answer: answer)
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.add(middleware: WebAccessMiddleware(access: access))
        sockets.ws("/api/socket") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, _ in
            let lines = broadcast.subscribe()
            try await outbound.write(.text(await answer(#"{"command":"status"}"#).line))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in lines { try await outbound.write(.text(line)) }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: Self.maximumBody) {
                        guard case .text(let line) = message else { continue }
                        try await outbound.write(.text(await answer(line).line))
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        let socketResponder = sockets.buildResponder()
        var logger = Logger(label: "pipcam-web")
        logger.logLevel = .critical
        let listening = Listening(), waiting = WaitingConnections()
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedUpgradeChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: socketResponder, configuration: .init(
                    http1: .init(idleTimeout: Self.idleTimeout), ws: .init(maxFrameSize: Self.maximumBody))), access: access, waiting: waiting)
            },
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "pipcam",
                                 availableConnectionsDelegate: MaximumAvailableConnections(Self.maximumConnections)),
            onServerRunning: { channel in listening.ready(port: channel.localAddress?.port) },
            logger: logger)
        server = Task {
            do {
                try await application.runService(gracefulShutdownSignals: [])
            } catch {
                listening.failed(error)
                throw error
            }
        }
        let port = try await listening.port(within: .seconds(10), address: address)
        url = "http://\(HostPort.text(address.host, port))/"
        ticker = Task {
            var tick = 0
            while !Task.isCancelled {
                if broadcast.isWatched {
                    // The meters ten times a second, the whole status once a second.
                    if let status = session.liveStatus(), !status.soundLevels.isEmpty {
                        broadcast.send(JSONValue.object(["event": "levels", "levels": status.soundLevelsJSON]).text)
                    }
                    if tick % 10 == 0 { broadcast.send(await answer(#"{"command":"status"}"#).line) }
                }
                tick += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private static func addRoutes(to router: Router<BasicRequestContext>, token: WebToken?, session: CaptureSession, metrics: SessionMetrics,
                                  answer: @escaping ControlHandler) {
        router.get("/") { _, _ in WebPage.page() }
        router.get("/page.js") { _, _ in WebPage.script() }
        router.get("/page.css") { _, _ in WebPage.styles() }
        router.get("/api/status") { _, _ in json(await answer(#"{"command":"status"}"#)) }
        router.post("/api/command") { request, context -> Response in
            guard request.headers[.contentLength] != nil else { return WebAccess.refusal(.lengthRequired, "give the command's Content-Length") }
            guard let body = await smallBody(of: request) else { return WebAccess.refusal(.contentTooLarge, "a command is at most \(maximumBody) bytes") }
            let line = String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.contains("\n") else { return WebAccess.refusal(.badRequest, "one command per request") }
            return json(await answer(line))
        }
        router.get("/live.mjpeg") { _, _ in try livePictures(session) }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: metrics.text())))
        }
        router.post("/login") { request, _ -> Response in
            guard request.headers[.contentLength] != nil else { return WebAccess.refusal(.lengthRequired, "give the form's Content-Length") }
            guard let body = await smallBody(of: request) else { return WebAccess.refusal(.contentTooLarge, "too long for a token") }
            let offered = URLComponents(string: "?" + String(buffer: body).replacingOccurrences(of: "+", with: " "))?
                .queryItems?.first { $0.name == "token" }?.value ?? ""
            guard let token, token.matches(Substring(offered)) else { return WebPage.login(status: .unauthorized, note: "That token is not this pipcam's.") }
            return Response(status: .seeOther, headers: [
                .location: "/",
                .setCookie: "\(WebAccess.cookieName)=\(token.value); Path=/; HttpOnly; SameSite=Strict",
            ])
        }
    }

    /// The preview's pictures as one endless multipart response, which an `<img>` shows as a moving
    /// picture. Pictures are made only while such a response is open; a viewer that falls behind is sent
    /// the newest picture, never a backlog.
    private static func livePictures(_ session: CaptureSession) throws -> Response {
        let pictures: AsyncStream<PreviewPicture>
        do {
            pictures = try session.previewPictures()
        } catch {
            return WebAccess.refusal(.notFound, "\(error)")
        }
        let boundary = "pipcam-picture"
        return Response(status: .ok, headers: [.contentType: "multipart/x-mixed-replace; boundary=\(boundary)", .cacheControl: "no-store"],
                        body: ResponseBody { writer in
            for await picture in pictures {
                var part = ByteBuffer(string: "--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(picture.jpeg.count)\r\n\r\n")
                part.writeBytes(picture.jpeg)
                part.writeString("\r\n")
                try await writer.write(part)
            }
            try await writer.finish(nil)
        })
    }

    /// The request's body when it is at most `maximumBody` bytes: one that says it is longer is refused
    /// before a byte of it is read, one that turns out longer as soon as it passes the limit.
    private static func smallBody(of request: Request) async -> ByteBuffer? {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maximumBody { return nil }
        return try? await request.body.collect(upTo: maximumBody)
    }

    /// A command's answer: 200 when it was carried out, 400 with the reason when not.
    private static func json(_ answer: ControlAnswer) -> Response {
        Response(status: answer.isCarriedOut ? .ok : .badRequest, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: answer.line + "\n")))
    }

    /// An event of the session, to every open WebSocket and to the metrics.
    public func publish(_ event: SessionEvent) {
        metrics.count(event)
        if let line = event.jsonLine { broadcast.send(line) }
    }

    /// Closes every connection and stops listening.
    public func stop() async {
        ticker.cancel()
        broadcast.finish()
        server.cancel()
        _ = await server.result
    }
}

/// The server's first moments: listening on a port, or failed to (an address in use, not this machine's).
private final class Listening: Sendable {
    private let outcome = Answer<Result<Int, any Error>>()

    func ready(port: Int?) { outcome.give(.success(port ?? 0)) }
    func failed(_ error: any Error) { outcome.give(.failure(error)) }

    func port(within limit: Duration, address: WebAddress) async throws -> Int {
        guard let outcome = try await Blocking.run({ [outcome] in outcome.wait(atMost: limit) }) else {
            throw WebRemoteError("the web page did not start listening on \(address) within \(limit.components.seconds) s")
        }
        switch outcome {
        case .success(let port): return port
        case .failure(let error): throw WebRemoteError("cannot listen on \(address) for the web page: \(Self.reason(error))")
        }
    }

    /// Known failures by their errno; others in the system's words, first line.
    private static func reason(_ error: any Error) -> String {
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: return "the address is in use (another program, or another pipcam)"
        case EADDRNOTAVAIL: return "the address is not this machine's"
        default:
            let text = "\(error)"
            return text.split(separator: "\n").first.map(String.init) ?? text
        }
    }
}
