import HTTPTypes
import Hummingbird

/// The one page, served as it is: no build step and nothing fetched from elsewhere. It talks to pipcam
/// over the WebSocket only: status and events come in, commands go out. Every text it shows is set as
/// text, never as markup, so a device's or a file's name cannot become part of the page.
enum WebPage {
    static func page() -> Response {
        html(.ok, body)
    }

    /// The login form, for a browser outside this machine without the token's cookie.
    static func login(status: HTTPResponse.Status, note: String?) -> Response {
        let said = note.map { "<p class=note>\($0)</p>" } ?? ""
        return html(status, """
        <!doctype html><html><head><meta charset=utf-8><meta name=viewport content="width=device-width,initial-scale=1">
        <title>pipcam</title><link rel=icon href="data:,"><link rel=stylesheet href="/page.css"></head>
        <body class=login><h1>pipcam</h1>\(said)<form method=post action=/login><label>Token<input name=token type=password autocomplete=current-password autofocus></label>
        <input type=submit value="Log in"></form></body></html>
        """)
    }

    /// The script and the looks, each from its own path (`WebPage+Script`, `WebPage+Styles`).
    static func script() -> Response { resource("text/javascript; charset=utf-8", pageScript) }
    static func styles() -> Response { resource("text/css; charset=utf-8", pageStyles) }

    /// What the page may load: its own script, looks and pictures, and its own WebSocket; nothing inline.
    static let policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'"

    private static func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .init("Content-Security-Policy")!: policy],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func resource(_ type: String, _ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static let body = """
    <!doctype html>
    <html><head><meta charset=utf-8><meta name=viewport content="width=device-width,initial-scale=1">
    <title>pipcam</title><link rel=icon href="data:,">
    <link rel=stylesheet href="/page.css">
    </head>
    <body>
    <h1>pipcam <span id=state>connecting…</span></h1>
    <img id=picture src="/live.mjpeg" alt="the cameras, live">
    <div class=buttons>
    <button id=record data-command='{"command":"record"}'>Record</button>
    <button id=stop data-command='{"command":"stop"}'>Stop</button>
    <button id=swap data-command='{"command":"swap"}'>Swap</button>
    <button id=layoutButton data-command='{"command":"layout"}'>Layout</button>
    <button id=corner data-command='{"command":"corner"}'>Corner</button>
    <button id=photo data-command='{"command":"photo"}'>Photo</button>
    <button id=marker data-command='{"command":"marker"}'>Marker</button>
    <button id=pause>Pause</button>
    </div>
    <div id=error></div>
    <div id=meters></div>
    <div class=buttons id=mutes></div>
    <table>
    <tr><td>Time</td><td id=elapsed>–</td></tr>
    <tr><td>File</td><td id=file>–</td></tr>
    <tr><td>Size</td><td id=size>–</td></tr>
    <tr><td>Free disk</td><td id=free>–</td></tr>
    <tr><td>Cameras</td><td id=cameras>–</td></tr>
    <tr><td>Microphones</td><td id=microphones>–</td></tr>
    <tr><td>Pressure</td><td id=pressure>–</td></tr>
    <tr><td>Streams</td><td id=streams>–</td></tr>
    <tr><td>Layout</td><td id=layout>–</td></tr>
    </table>
    <div id=controls></div>
    <div id=log></div>
    <script src="/page.js"></script>
    </body></html>
    """
}
