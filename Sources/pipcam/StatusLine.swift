import Capture
import Foundation

/// The one place that prints recording progress: a line rewritten in place on a terminal, plain lines
/// every few seconds otherwise (logs, CI).
struct StatusLine {
    var isTerminal = isatty(STDERR_FILENO) != 0
    private var previous: [String: Int] = [:]
    private var lastPlain: Duration = .zero
    private var lastTime: Duration = .zero

    /// `note` is appended when not empty (pressure level and throttle step).
    mutating func show(_ status: LiveStatus, note: String = "") {
        guard let text = text(for: status, note: note, columns: isTerminal ? Self.terminalColumns() : nil) else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// What to write for `status`: the line rewritten in place on a terminal; elsewhere a plain line
    /// every five seconds of recording, and nil between them.
    /// On a terminal `columns` wide, the line is cut to fit: a line that wraps is not rewritten in place.
    mutating func text(for status: LiveStatus, note: String = "", columns: Int? = nil) -> String? {
        let interval = max(0.001, (status.elapsed - lastTime).seconds)
        let rates = status.frames.map { camera -> String in
            let delta = camera.count - (previous[camera.inputID] ?? 0)
            return "\(camera.inputID) \(String(format: "%.0f", Double(delta) / interval)) fps"
        }
        previous = Dictionary(uniqueKeysWithValues: status.frames.map { ($0.inputID, $0.count) })
        lastTime = status.elapsed
        let away = status.away.map { "\($0.inputID) lost \(Int((status.elapsed - $0.since).seconds)) s" }
        let size = status.fileSize.map { "  " + RecordingSummary.bytes($0) } ?? ""
        let lostSound = status.soundLost.keys.sorted().map { "\($0) " + RecordingSummary.seconds(status.soundLost[$0]!) }
        let streams = status.streams.map(\.text).joined(separator: ", ")
        let meters = status.soundLevels.keys.sorted().map { id in
            SoundMeter.text(id, status.soundLevels[id]!, bar: isTerminal) + (status.soundAlerts[id].map { " " + $0.uppercased() } ?? "")
        }
        // The time the file holds (pauses left out), and how long the pause under way has lasted.
        let paused = status.paused.map { "  PAUSED \(RecordingSummary.clock($0))" } ?? ""
        let markers = status.markers > 0 ? "  \(status.markers) marker\(status.markers == 1 ? "" : "s")" : ""
        let line = RecordingSummary.clock(status.recorded ?? status.elapsed) + paused + markers
            + "  " + rates.joined(separator: ", ") + (away.isEmpty ? "" : "  " + away.joined(separator: ", ")) + "  dropped \(status.dropped)"
            + (lostSound.isEmpty ? "" : "  sound lost: " + lostSound.joined(separator: ", ")) + size
            + (meters.isEmpty ? "" : "  " + meters.joined(separator: "  "))
            + (streams.isEmpty ? "" : "  " + streams) + (status.uploads.map { "  " + $0.text } ?? "") + (note.isEmpty ? "" : "  \(note)")
        if isTerminal { return "\r\u{1B}[K" + (columns.map { String(line.prefix(max(1, $0 - 1))) } ?? line) }
        guard status.elapsed - lastPlain >= .seconds(5) else { return nil }
        lastPlain = status.elapsed
        return "recording " + line + "\n"
    }

    /// The width of the terminal standard error is, if it says.
    static func terminalColumns() -> Int? {
        var size = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
