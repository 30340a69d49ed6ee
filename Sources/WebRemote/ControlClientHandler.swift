import Capture
import Foundation
import NIOCore

/// One control client: its lines are answered in the order it wrote them, each before the next is taken.
///
/// A plain handler on the client's own channel rather than an async channel handed to a serving task:
/// an async channel accepted just as the listener closes is never taken by that task, and NIO traps
/// when it is let go unfinished. A handler lives and ends with its channel, whenever that closes.
final class ControlClientHandler: ChannelDuplexHandler {
    typealias InboundIn = String
    typealias OutboundIn = Never
    typealias OutboundOut = ByteBuffer

    private let handle: ControlHandler
    /// Commands read and not yet answered, oldest first. At most what one read brought: no more is
    /// read until they are answered.
    private var waiting: [String] = []
    private var answering = false
    /// A read the channel asked for while commands were waiting; made once they are answered.
    private var readHeldBack = false
    private var open = true

    init(handle: @escaping ControlHandler) {
        self.handle = handle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let command = unwrapInboundIn(data).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !command.isEmpty else { return }
        waiting.append(command)
        answerNext(context: context)
    }

    /// Reads wait while commands are waiting: a client that writes faster than it is answered is held
    /// back by its socket, not by pipcam's memory.
    func read(context: ChannelHandlerContext) {
        if answering || !waiting.isEmpty {
            readHeldBack = true
        } else {
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        open = false
        waiting.removeAll()
        context.fireChannelInactive()
    }

    /// A line over the limit, or a failed socket: the client is let go.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Starts answering the oldest waiting command unless one is being answered; when none is left,
    /// makes the read held back.
    private func answerNext(context: ChannelHandlerContext) {
        guard !answering, open else { return }
        guard !waiting.isEmpty else {
            if readHeldBack {
                readHeldBack = false
                context.read()
            }
            return
        }
        answering = true
        let command = waiting.removeFirst()
        let answer = context.eventLoop.makePromise(of: String.self)
        answer.completeWithTask { [handle] in await handle(command).line }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        answer.futureResult.whenSuccess { line in
            let (handler, context) = bound.value
            handler.answered(line, context: context)
        }
    }

    private func answered(_ line: String, context: ChannelHandlerContext) {
        answering = false
        guard open else { return }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line + "\n")), promise: nil)
        answerNext(context: context)
    }
}
