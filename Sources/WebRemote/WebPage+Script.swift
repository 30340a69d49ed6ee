extension WebPage {
    /// The page's script, served as `/page.js` so the page's Content-Security-Policy allows scripts from
    /// pipcam alone (`script-src 'self'`): nothing a name shown on the page carries can run.
    static let pageScript = """
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
    """
}
