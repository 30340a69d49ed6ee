import Foundation
import PipcamTestSupport
@testable import WebRemote
import XCTest

/// The web page's rules as values: its address, who gets in, its token file.
final class WebRemoteTests: XCTestCase {
    func testAddressesAreReadWithTheirPortAndOnlyLoopbackOnesGoWithoutAToken() throws {
        for (text, host, port, loopback) in [("127.0.0.1:8080", "127.0.0.1", 8080, true), ("localhost:80", "localhost", 80, true),
                                              ("[::1]:8080", "::1", 8080, true), ("0.0.0.0:8080", "0.0.0.0", 8080, false),
                                              ("192.168.1.20:9000", "192.168.1.20", 9000, false)] {
            let address = try WebAddress(text)
            XCTAssertEqual(address.host, host, text)
            XCTAssertEqual(address.port, port, text)
            XCTAssertEqual(address.isLoopback, loopback, text)
            XCTAssertFalse(try WebAddress("127.0.0.1.pages.example:80").isLoopback, "a name that starts like a loopback address")
            XCTAssertEqual(address.description, text == "localhost:80" ? "localhost:80" : text)
        }
        for (text, said) in [("8080", "needs a port"), (":8080", "needs a host"), ("0.0.0.0:0", "from 1 to 65535"), ("0.0.0.0:70000", "from 1 to 65535"),
                             ("[::1:8080", "[ADDRESS]:PORT"), ("ho st:80", "not a name or an address"), ("host:http", "from 1 to 65535")] {
            XCTAssertThrowsError(try WebAddress(text), text) { error in
                XCTAssertTrue("\(error)".contains(said), "\(text): \(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    func testOnLoopbackOnlyThisMachinesNamesAndNoOtherSitesPagesGetIn() {
        let access = WebAccess(token: nil)
        func verdict(host: String?, origin: String? = nil) -> WebAccess.Verdict {
            access.verdict(method: "GET", path: "/api/status", host: host, origin: origin, authorization: nil, cookies: [])
        }
        for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "127.0.0.2"] { XCTAssertEqual(verdict(host: host), .allowed, host) }
        for host in ["pages.example:8080", "192.168.1.2:8080", "", "127.0.0.1.pages.example", "127.pages.example:8080", "127.0.0.256:80"] {
            XCTAssertNotEqual(verdict(host: host), .allowed, "a name rebound to this machine: \(host)")
        }
        XCTAssertNil(verdict(host: nil) == .allowed ? "" : nil)
        XCTAssertEqual(verdict(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080"), .allowed, "the page's own scripts")
        for origin in ["http://pages.example", "http://127.0.0.1:9999", "null", "file://", "http://127.0.0.1:8080.pages.example"] {
            XCTAssertNotEqual(verdict(host: "127.0.0.1:8080", origin: origin), .allowed, origin)
        }
        // An image or a script of another site's page carries no Origin, but a browser says where it comes from.
        func fetched(from site: String) -> WebAccess.Verdict {
            access.verdict(method: "GET", path: "/live.mjpeg", host: "127.0.0.1:8080", origin: nil, authorization: nil, cookies: [], fetchSite: site)
        }
        XCTAssertEqual(fetched(from: "same-origin"), .allowed)
        XCTAssertEqual(fetched(from: "none"), .allowed, "typed into the address bar")
        XCTAssertNotEqual(fetched(from: "cross-site"), .allowed)
        XCTAssertNotEqual(fetched(from: "same-site"), .allowed, "another port of this machine is another site's page")
    }

    func testOffLoopbackTheTokenIsNeededAsABearerTokenOrTheLoginCookie() {
        let access = WebAccess(token: WebToken(value: "a-token-of-forty-three-characters-for-tests"))
        func verdict(_ method: String = "GET", _ path: String = "/api/status", authorization: String? = nil, cookies: [String] = []) -> WebAccess.Verdict {
            access.verdict(method: method, path: path, host: "192.168.1.2:8080", origin: nil, authorization: authorization, cookies: cookies)
        }
        XCTAssertEqual(verdict(), .unauthorized(loginForm: false))
        XCTAssertEqual(verdict("GET", "/"), .unauthorized(loginForm: true), "a browser gets the login form")
        XCTAssertEqual(verdict("POST", "/login"), .allowed, "the login form is how the token comes in")
        XCTAssertEqual(verdict("GET", "/page.css"), .allowed, "the login form's looks")
        XCTAssertEqual(verdict("GET", "/page.js"), .unauthorized(loginForm: false), "the page's script is the page's")
        XCTAssertEqual(verdict(authorization: "Bearer a-token-of-forty-three-characters-for-tests"), .allowed)
        XCTAssertEqual(verdict(authorization: "bearer  a-token-of-forty-three-characters-for-tests"), .allowed)
        XCTAssertEqual(verdict(cookies: ["theme=dark; pipcam-token=a-token-of-forty-three-characters-for-tests"]), .allowed)
        for wrong in ["Bearer a-token-of-forty-three-characters-for-test", "Bearer a-token-of-forty-three-characters-for-tests!", "Basic dXNlcjpwYXNz", "Bearer "] {
            XCTAssertEqual(verdict(authorization: wrong), .unauthorized(loginForm: false), wrong)
        }
        XCTAssertEqual(verdict(cookies: ["pipcam-token=guess"]), .unauthorized(loginForm: false))
    }

    func testTheTokenIsMadeOnceReadableByTheUserAloneAndALooseOneIsRefused() throws {
        let path = try Paths.scratch("web-token") + "/config/pipcam/web-token"
        let (made, isNew) = try WebToken.loadOrMake(at: path)
        XCTAssertTrue(isNew)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(made.text.count, 43)
        XCTAssertNil(made.text.rangeOfCharacter(from: CharacterSet(charactersIn: "+/=")), "safe in a header and a cookie")
        let (again, isNewAgain) = try WebToken.loadOrMake(at: path)
        XCTAssertFalse(isNewAgain)
        XCTAssertEqual(again.text, made.text)
        XCTAssertNotEqual(try WebToken.loadOrMake(at: try Paths.scratch("web-token-2") + "/t").token.text, made.text, "each machine its own")

        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        XCTAssertThrowsError(try WebToken.loadOrMake(at: path)) { XCTAssertTrue("\($0)".contains("chmod 600"), "\($0)") }
        try "short\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        XCTAssertThrowsError(try WebToken.loadOrMake(at: path)) { XCTAssertTrue("\($0)".contains("shorter than 16"), "\($0)") }
        XCTAssertEqual(WebToken.defaultPath(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/a"]), "/cfg/pipcam/web-token")
        XCTAssertEqual(WebToken.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]), "/home/a/.config/pipcam/web-token")
    }
}
