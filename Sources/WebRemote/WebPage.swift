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
        <title>pipcam</title><style>body{font:16px sans-serif;margin:2em auto;max-width:22em;padding:0 1em}
        input{font:inherit;width:100%;box-sizing:border-box;margin:.4em 0;padding:.4em}.note{color:#b00}</style></head>
        <body><h1>pipcam</h1>\(said)<form method=post action=/login><label>Token<input name=token type=password autocomplete=current-password autofocus></label>
        <input type=submit value="Log in"></form></body></html>
        """)
    }

    private static func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                           .init("Content-Security-Policy")!: "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static let body = """
    <!doctype html>
    <html><head><meta charset=utf-8><meta name=viewport content="width=device-width,initial-scale=1">
    <title>pipcam</title><link rel=icon href="data:,">
    <style>
    body{font:15px sans-serif;margin:0 auto;max-width:40em;padding:.5em}
    h1{font-size:1.2em;margin:.2em 0}
    #picture{display:block;width:100%;max-width:640px;aspect-ratio:16/9;background:#000}
    #state{font-weight:bold}#state.rec{color:#c00}
    table{border-collapse:collapse;width:100%}td{padding:.15em .3em;border-bottom:1px solid #ddd;vertical-align:top}
    td:first-child{color:#555;width:8em}
    .buttons{display:flex;flex-wrap:wrap;gap:.4em;margin:.6em 0}
    button{font:inherit;padding:.5em .8em;min-width:5em}
    #record{color:#c00;font-weight:bold}
    .meter{display:flex;align-items:center;gap:.5em;margin:.2em 0}.meter meter{flex:1;height:1.2em}.meter span{min-width:7em}
    .control{display:flex;align-items:center;gap:.5em;margin:.2em 0}.control label{width:10em}.control input[type=range]{flex:1}
    #error{color:#b00;min-height:1.2em}
    #log{font:12px monospace;white-space:pre-wrap;max-height:12em;overflow:auto;background:#f4f4f4;padding:.3em}
    </style></head>
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
    <script>
    "use strict";
    const $ = id => document.getElementById(id);
    let socket;
    function size(bytes) {
      if (bytes == null) return "–";
      const units = ["B", "KB", "MB", "GB", "TB"]; let i = 0;
      while (bytes >= 1000 && i < units.length - 1) { bytes /= 1000; i++; }
      return bytes.toFixed(i ? 1 : 0) + " " + units[i];
    }
    function clock(seconds) {
      if (seconds == null) return "–";
      const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
      return (h ? h + ":" : "") + String(m).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
    }
    function names(object, lost) {
      const keys = Object.keys(object || {}).sort();
      if (!keys.length) return "none";
      return keys.map(k => k + (lost && k in lost ? " (lost)" : object[k] ? "" : " (off)")).join(", ");
    }
    function element(tag, properties, parent) {
      const made = document.createElement(tag);
      Object.assign(made, properties);
      if (parent) parent.appendChild(made);
      return made;
    }
    function show(s) {
      const paused = typeof s.paused === "number";
      $("state").textContent = paused ? "paused " + clock(s.paused) : s.recording ? "recording" : "live";
      $("state").className = s.recording && !paused ? "rec" : "";
      $("elapsed").textContent = clock(s.recorded != null ? s.recorded : s.elapsed) + (s.markers ? ", " + s.markers + " markers" : "");
      $("pause").textContent = paused ? "Resume" : "Pause";
      $("pause").onclick = () => send({command: paused ? "resume" : "pause"});
      $("file").textContent = s.file || "–";
      $("size").textContent = size(s.size);
      $("free").textContent = size(s.free);
      $("cameras").textContent = names(s.cameras, s.lost);
      $("microphones").textContent = names(s.microphones, s.lost);
      $("pressure").textContent = s.pressure ? s.pressure.level + (s.pressure.step ? ", throttled " + s.pressure.step : "") : "–";
      $("streams").textContent = Object.keys(s.streams || {}).sort().map(k => k + " " + s.streams[k]).join(", ") || "none";
      $("layout").textContent = s.layout + ", inset " + s.corner + ", main " + s.main;
      for (const id of Object.keys(s.microphones || {}).sort()) {
        let button = $("mute-" + id);
        if (!button) {
          button = element("button", {id: "mute-" + id, onclick: () => send({command: "mute", id})}, $("mutes"));
        }
        button.textContent = (s.microphones[id] ? "Mute " : "Unmute ") + id;
      }
      alerts = s["sound-alerts"] || {};
      if (s.levels) meters(s.levels);
      if (s.controls) controls(s.controls);
    }
    // What the last status said needs looking at in each microphone's sound: clipping, silent.
    let alerts = {};
    function meters(levels) {
      for (const id of Object.keys(levels).sort()) {
        let meter = $("meter-" + id);
        if (!meter) {
          const row = element("div", {className: "meter"}, $("meters"));
          element("span", {textContent: id}, row);
          meter = element("meter", {id: "meter-" + id, min: -60, max: 0, low: -20, high: -6, optimum: -30}, row);
          element("span", {id: "level-" + id}, row);
        }
        meter.value = Math.max(-60, levels[id].rms);
        $("level-" + id).textContent = (levels[id].peak <= -100 ? "silent" : "peak " + levels[id].peak.toFixed(0) + " dB")
          + (alerts[id] ? " " + alerts[id].toUpperCase() : "");
      }
    }
    function controls(all) {
      const box = $("controls");
      box.textContent = "";
      for (const camera of Object.keys(all).sort()) {
        const settable = all[camera].filter(c => !c.readOnly && c.kind !== "button");
        if (!settable.length) continue;
        element("h2", {textContent: camera + " controls"}, box).style.fontSize = "1em";
        for (const c of settable) {
          const row = element("div", {className: "control"}, box);
          element("label", {textContent: c.title || c.name}, row);
          const set = value => send({command: "control", camera, set: {[c.name]: value}});
          if (c.kind === "boolean") {
            element("input", {type: "checkbox", checked: c.value === 1, disabled: c.inactive, onchange: e => set(e.target.checked)}, row);
          } else if (c.menu && c.menu.length) {
            const menu = element("select", {disabled: c.inactive, onchange: e => set(Number(e.target.value))}, row);
            for (const entry of c.menu) element("option", {value: entry.index, textContent: entry.name, selected: entry.index === c.value}, menu);
          } else {
            const out = element("span", {textContent: c.value}, row);
            element("input", {type: "range", min: c.minimum, max: c.maximum, step: c.step || 1, value: c.value, disabled: c.inactive,
              oninput: e => { out.textContent = e.target.value; }, onchange: e => set(Number(e.target.value))}, row);
          }
        }
      }
    }
    function log(line) {
      $("log").textContent = (line + "\\n" + $("log").textContent).slice(0, 8000);
    }
    function send(command) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
    }
    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/socket");
      socket.onopen = () => send({command: "controls"});
      socket.onmessage = message => {
        let value; try { value = JSON.parse(message.data); } catch { return; }
        if (value.ok === true) { show(value); $("error").textContent = ""; }
        else if (value.ok === false) $("error").textContent = value.error;
        else if (value.event === "levels") meters(value.levels);
        else if (value.event && value.event !== "pressure") log(message.data);
      };
      socket.onclose = () => { $("state").textContent = "disconnected"; $("state").className = ""; setTimeout(connect, 2000); };
    }
    for (const button of document.querySelectorAll("button[data-command]")) {
      button.onclick = () => send(JSON.parse(button.dataset.command));
    }
    connect();
    </script>
    </body></html>
    """
}
