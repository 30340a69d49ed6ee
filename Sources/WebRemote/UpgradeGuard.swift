import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Stands before the WebSocket library's upgrade handler, for a connection's first request, which that
/// handler reads before any of Hummingbird's own handling is in place:
///
/// - a connection that has not sent a whole request head within `headTimeout` (one that opens and never
///   speaks, or sends its headers a byte at a time) is closed, and so is the oldest of those when more
///   than `WaitingConnections.limit` wait at once; later requests have Hummingbird's idle timeout;
/// - a head that is not HTTP (a bad method or version, control characters, headers beyond NIO's 80 kB)
///   is answered 400 (431 for the size) and the connection closed, where it would otherwise wait;
/// - a WebSocket upgrade that `WebAccess` refuses loses its `Upgrade` header, so it goes to the page's
///   routes as a plain request and is answered 401 or 403 like any other, not the library's bare 400.
final class UpgradeGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// How long a new connection has to send its first request head.
    static let headTimeout: TimeAmount = .seconds(10)

    private let access: WebAccess
    private let waiting: WaitingConnections
    private var deadline: Scheduled<Void>?
    private var answered = false

    init(access: WebAccess, waiting: WaitingConnections) {
        self.access = access
        self.waiting = waiting
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: Self.headTimeout) { bound.value.close(promise: nil) }
        waiting.opened(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        waiting.ended(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        deadline?.cancel()
        waiting.ended(context.channel)
        if head.headers.contains(name: "upgrade") {
            let path = String(head.uri.prefix { $0 != "?" })
            let verdict = access.verdict(method: head.method.rawValue, path: path, host: head.headers.first(name: "host"), origin: head.headers.first(name: "origin"),
                                         authorization: head.headers.first(name: "authorization"), cookies: head.headers["cookie"],
                                         fetchSite: head.headers.first(name: "sec-fetch-site"))
            if verdict != .allowed {
                head.headers.remove(name: "upgrade")
                head.headers.replaceOrAdd(name: "connection", value: "close")
            }
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        // Only a connection's first request can be upgraded; later ones are Hummingbird's alone.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        deadline?.cancel()
        let status: HTTPResponseStatus = parserError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: ["Connection": "close", "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}

/// The WebSocket library's HTTP/1 channel with `UpgradeGuard` placed before its upgrade handler.
struct GuardedUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let inner: HTTP1WebSocketUpgradeChannel
    let access: WebAccess
    let waiting: WaitingConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let upgrader = try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try channel.pipeline.syncOperations.addHandler(UpgradeGuard(access: access, waiting: waiting), position: .before(upgrader))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
