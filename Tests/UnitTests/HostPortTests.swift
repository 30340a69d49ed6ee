import CaptureModel
@testable import WebRemote
import XCTest

/// The one rule for a host with its port, where the web page, streams, cameras and reach checks write
/// and read one.
final class HostPortTests: XCTestCase {
    func testAnIPv6HostIsBracketedOnceAndOtherHostsAreLeftAlone() {
        XCTAssertEqual(HostPort.text("::1", 8080), "[::1]:8080")
        XCTAssertEqual(HostPort.text("[::1]", 8080), "[::1]:8080", "never twice")
        XCTAssertEqual(HostPort.text("127.0.0.1", 1935), "127.0.0.1:1935")
        XCTAssertEqual(HostPort.text("cam.example", 554), "cam.example:554")
        XCTAssertEqual(HostPort.unbracketed("[fd00::5]"), "fd00::5")
        XCTAssertEqual(HostPort.unbracketed("cam.example"), "cam.example")
    }

    func testAnAuthorityIsTakenApartOrRefusedWhenItsBracketIsWrong() {
        func parts(_ text: String) -> [String?]? { HostPort.split(text).map { [String($0.host), $0.port.map(String.init)] } }
        XCTAssertEqual(parts("127.0.0.1:8080"), ["127.0.0.1", "8080"])
        XCTAssertEqual(parts("[::1]:8080"), ["::1", "8080"])
        XCTAssertEqual(parts("[::1]"), ["::1", nil])
        XCTAssertEqual(parts("localhost"), ["localhost", nil])
        XCTAssertEqual(parts(":9000"), ["", "9000"], "SRT's listener: no host")
        XCTAssertNil(parts("[::1"), "a bracket left open")
        XCTAssertNil(parts("[::1]x8080"), "something else after the bracket")
        XCTAssertEqual(try WebAddress("[::1]:8080").description, "[::1]:8080")
        XCTAssertThrowsError(try WebAddress("[::1]"), "no port")
    }
}
