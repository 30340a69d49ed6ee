import Capture
import Foundation
import PipcamTestSupport
import WebRemote
import XCTest

/// The web page stopping while browsers connect: the end of every recording with `--web`.
final class WebRemoteStopTests: XCTestCase {
    /// Connections that open just as the page stops are let go with it, and the process goes on: a page
    /// started afterwards answers. (An accepted connection that no task took once ended the process.)
    func testConnectionsOpeningAsThePageStopsAreLetGo() async throws {
        var connected = 0
        for _ in 0..<100 {
            let port = freeLocalPort()
            let page = try await WebRemote(address: try WebAddress("127.0.0.1:\(port)"), token: nil, session: CaptureSession()) { _ in .carriedOut([:]) }
            // One connection is waiting to be taken when the page stops; seven more race the stop.
            connected += try await Self.onAThread { Self.connectEach(1, to: port) }
            async let racing = Self.onAThread { Self.connectEach(7, to: port) }
            await page.stop()
            _ = try await racing
        }
        XCTAssertEqual(connected, 100, "a connection opened before each stop")
        let port = freeLocalPort()
        let page = try await WebRemote(address: try WebAddress("127.0.0.1:\(port)"), token: nil, session: CaptureSession()) { _ in .carriedOut([:]) }
        let response = try await Self.onAThread { try WebClient.request(port, "/api/status") }
        await page.stop()
        XCTAssertEqual(response.status, 200)
    }

    /// Tries `count` connections to 127.0.0.1:`port`, each once, and closes them; says how many connected.
    private static func connectEach(_ count: Int, to port: Int) -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let sockets = (0..<count).map { _ in Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }
        let connected = sockets.filter { socket in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }.count
        sockets.forEach { close($0) }
        return connected
    }

    /// Runs blocking socket calls off Swift's concurrency threads, which the page's answers need.
    private static func onAThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result(catching: body)) }.start()
        }
    }
}
