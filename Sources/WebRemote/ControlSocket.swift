import Capture
import Foundation
import NIOCore
import NIOPosix

/// `--control PATH`: a Unix domain socket for scripts, served on the event loops that serve the page
/// (no thread per client). Each line a client writes is one command and gets one line back
/// (`ControlClientHandler`).
public final class ControlSocket: Sendable {
    public let path: String
    private let listener: any Channel

    /// Listens at `path`. A socket left there by a pipcam that is gone is replaced; anything else is not.
    public init(path: String, handle: @escaping ControlHandler) async throws {
        let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
        guard path.utf8.count <= limit else {
            throw WebRemoteError("the control socket path \(path) is too long (at most \(limit) bytes)")
        }
        try await Self.clearStale(path)
        do {
            listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 8)
                .childChannelInitializer { client in
                    client.eventLoop.makeCompletedFuture {
                        try client.pipeline.syncOperations.addHandler(ByteToMessageHandler(ControlLineDecoder()))
                        try client.pipeline.syncOperations.addHandler(ControlClientHandler(handle: handle))
                    }
                }
                .bind(unixDomainSocketPath: path).get()
        } catch {
            throw WebRemoteError("cannot listen on the control socket \(path): \(Self.reason(error))")
        }
        self.path = path
    }

    /// Stops listening and removes the socket file. Clients still connected are answered until they
    /// hang up or the process ends. (NIO removes the path again once the listener has closed, a moment
    /// later; a pipcam opens one control socket a run, so by then nothing of its own is there.)
    public func close() {
        listener.close(promise: nil)
        unlink(path)
    }

    /// A socket file no program listens on is removed; a file of another kind, or a socket that
    /// answers, is left alone and said.
    private static func clearStale(_ path: String) async throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw WebRemoteError("\(path) exists and is not a socket; choose another --control path") }
        if let probe = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(unixDomainSocketPath: path).get() {
            try? await probe.close()
            throw WebRemoteError("another program is listening on \(path); choose another --control path")
        }
        unlink(path)
    }

    /// The system's word for a failure to listen (no such folder, permission denied).
    private static func reason(_ error: any Error) -> String {
        (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
    }
}

/// A control client's lines, without their newline. A line longer than `limit` bytes ends the client:
/// no command is that long, and what is waiting for its end is held in memory.
struct ControlLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String
    static let limit = 1 << 20

    struct TooLong: Error {}

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.limit { throw TooLong() }
            return .needMoreData
        }
        let line = buffer.readString(length: newline - buffer.readerIndex) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}
