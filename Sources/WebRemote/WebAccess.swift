import Capture
import Foundation
import HTTPTypes
import Hummingbird

/// Who may reach the page, decided before any route: on loopback, only requests addressed to this machine
/// by name (a page elsewhere cannot rebind its own name to 127.0.0.1 and script pipcam); elsewhere, only
/// requests carrying the token, as a bearer token or the login form's cookie. A browser's request from
/// another site's page (its Origin, or its Sec-Fetch-Site) is refused everywhere, so a WebSocket, a
/// command or the live picture cannot be opened from a page the user merely visits.
struct WebAccess: Sendable {
    let token: WebToken?

    static let cookieName = "pipcam-token"

    enum Verdict: Equatable {
        case allowed
        case forbidden(String)
        /// Without the token; a browser asking for the page gets the login form.
        case unauthorized(loginForm: Bool)
    }

    /// The verdict on one request, from its method, path and the headers that matter.
    func verdict(method: String, path: String, host: String?, origin: String?, authorization: String?, cookies: [String],
                 fetchSite: String? = nil) -> Verdict {
        if token == nil, !Self.isLoopbackHost(host ?? "") {
            return .forbidden("this page answers only to this machine's own address (127.0.0.1 or localhost)")
        }
        if let origin, !Self.sameOrigin(origin, host: host ?? "") {
            return .forbidden("requests from another site's page are refused")
        }
        // What a browser says of the page that made the request: only the page itself, or the user typing.
        if let fetchSite, !["same-origin", "none"].contains(fetchSite.lowercased()) {
            return .forbidden("requests from another site's page are refused")
        }
        guard let token, !(method == "POST" && path == "/login"), !(method == "GET" && path == "/page.css") else { return .allowed }
        guard token.matches(Self.offeredToken(authorization: authorization, cookies: cookies) ?? "") else {
            return .unauthorized(loginForm: method == "GET" && path == "/")
        }
        return .allowed
    }

    /// The bearer token, else the login cookie's value.
    static func offeredToken(authorization: String?, cookies: [String]) -> Substring? {
        if let authorization, authorization.lowercased().hasPrefix("bearer ") {
            return authorization.dropFirst("bearer ".count).drop { $0 == " " }
        }
        for header in cookies {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName { return parts[1] }
            }
        }
        return nil
    }

    /// `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`.
    static func isLoopbackHost(_ authority: String) -> Bool {
        guard let name = HostPort.split(authority)?.host else { return false }
        return WebAddress.isLoopback(name)
    }

    /// `http://HOST[:PORT]` of the Origin against the Host the request was sent to.
    static func sameOrigin(_ origin: String, host: String) -> Bool {
        guard let url = URL(string: origin), url.scheme == "http" || url.scheme == "https", let originHost = url.host else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(HostPort.bracketed(originHost))\(port)".lowercased() == host.lowercased()
    }

    static func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// `WebAccess` in front of every route.
struct WebAccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: WebAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch access.verdict(method: request.method.rawValue, path: request.uri.path, host: request.head.authority, origin: request.headers[.origin],
                              authorization: request.headers[.authorization], cookies: request.headers[values: .cookie],
                              fetchSite: request.headers[HTTPField.Name("Sec-Fetch-Site")!]) {
        case .allowed:
            return try await next(request, context)
        case .forbidden(let reason):
            return WebAccess.refusal(.forbidden, reason)
        case .unauthorized(loginForm: true):
            return WebPage.login(status: .unauthorized, note: nil)
        case .unauthorized(loginForm: false):
            var refusal = WebAccess.refusal(.unauthorized, "a token is needed: Authorization: Bearer TOKEN, or log in at /")
            refusal.headers[.wwwAuthenticate] = "Bearer"
            return refusal
        }
    }
}
