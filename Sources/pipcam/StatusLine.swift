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
        guard let text = text(for: status, note: note) else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// What to write for `status`: the line rewritten in place on a terminal; elsewhere a plain line
    /// every five seconds of recording, and nil between them.
    mutating func text(for status: LiveStatus, note: String = "") -> String? {
        let interval = max(0.001, (status.elapsed - lastTime).seconds)
        let rates = status.frames.map { camera -> String in
            let delta = camera.count - (previous[camera.inputID] ?? 0)
            return "\(camera.inputID) \(String(format: "%.0f", Double(delta) / interval)) fps"
        }
        previous = Dictionary(uniqueKeysWithValues: status.frames.map { ($0.inputID, $0.count) })
        lastTime = status.elapsed
        let away = status.away.map { "\($0.inputID) lost \(Int((status.elapsed - $0.since).seconds)) s" }
        let size = RecordingSummary.bytes(status.fileSize ?? 0)
        let streams = status.streams.map(\.text).joined(separator: ", ")
        let meters = status.soundLevels.keys.sorted().map { id in
            SoundMeter.text(id, status.soundLevels[id]!, bar: isTerminal) + (status.soundAlerts[id].map { " " + $0.uppercased() } ?? "")
        }
        let line = RecordingSummary.clock(status.elapsed)
            + "  " + rates.joined(separator: ", ") + (away.isEmpty ? "" : "  " + away.joined(separator: ", ")) + "  dropped \(status.dropped)  \(size)"
            + (meters.isEmpty ? "" : "  " + meters.joined(separator: "  "))
            + (streams.isEmpty ? "" : "  " + streams) + (note.isEmpty ? "" : "  \(note)")
        if isTerminal { return "\r\u{1B}[K" + line }
        guard status.elapsed - lastPlain >= .seconds(5) else { return nil }
        lastPlain = status.elapsed
        return "recording " + line + "\n"
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
