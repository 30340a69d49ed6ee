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
            connected += try await onAThread { Self.connectEach(1, to: port) }
            async let racing = onAThread { Self.connectEach(7, to: port) }
            await page.stop()
            _ = try await racing
        }
        XCTAssertEqual(connected, 100, "a connection opened before each stop")
        let port = freeLocalPort()
        let page = try await WebRemote(address: try WebAddress("127.0.0.1:\(port)"), token: nil, session: CaptureSession()) { _ in .carriedOut([:]) }
        let response = try await onAThread { try WebClient.request(port, "/api/status") }
        await page.stop()
        XCTAssertEqual(response.status, 200)
    }

    /// Tries `count` connections to 127.0.0.1:`port`, each once, and closes them; says how many connected.
    private static func connectEach(_ count: Int, to port: Int) -> Int {
        let connections = (0..<count).compactMap { _ in try? RawConnection(port: port) }
        return connections.count
    }
}
