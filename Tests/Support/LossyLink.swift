import Foundation

/// A lossy, slow UDP link on 127.0.0.1 (`Tests/Programs/lossy-link.py`): datagrams sent to `port` reach
/// `target` and the answers come back, each way delayed and each datagram lost at the rate given. What
/// `tc netem` does to a veth pair, in user space: the kernels tests run on may lack sch_netem.
public final class LossyLink: @unchecked Sendable {
    public let port: Int
    private let relay: RunningCommand

    public init(to target: Int, loss: Double, delayMilliseconds: Int) throws {
        port = freeLocalPort(udp: true)
        relay = try Command.start(["python3", "\(Paths.repository)/Tests/Programs/lossy-link.py",
                                   String(port), String(target), String(loss), String(delayMilliseconds)])
        // It prints "ready" once it listens; a port that is bound shows in /proc/net/udp.
        let deadline = Date().addingTimeInterval(MediaServers.timeout)
        while !Self.isBound(port) {
            guard Date() < deadline else { throw ProbeError("the lossy link did not listen on \(port) within \(MediaServers.timeout) s") }
            usleep(20_000)
        }
    }

    deinit { stop() }

    public func stop() {
        relay.signal(SIGKILL)
        _ = relay.wait()
    }

    private static func isBound(_ port: Int) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
        return table.contains(String(format: ":%04X ", port))
    }
}
