import Foundation

/// What a stream reports while the recording runs: the events, the status line's state and the
/// summary's numbers. Each carries the stream's name and shown address, never its secrets.
public struct StreamEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The server took the stream's first data (a listener: it listens).
        case connected
        /// The server went away, refused or could not be reached; tried again after `retry`.
        case lost(reason: String, retry: Duration)
        /// The network fell behind: these pictures (whole groups, from a key frame) were left out of the
        /// stream, never out of the file; it resumed at a key frame.
        case dropped(pictures: Int)
    }

    public let stream: String
    public let kind: Kind

    package init(stream: String, kind: Kind) {
        self.stream = stream
        self.kind = kind
    }

    /// The event's line, as `--events` and the terminal print it.
    public var line: String {
        switch kind {
        case .connected: "stream '\(stream)' connected"
        case .lost(let reason, let retry): "stream '\(stream)' lost (\(reason)); trying again in \(Int(retry.seconds.rounded())) s"
        case .dropped(let pictures): "stream '\(stream)' fell behind: \(pictures) pictures left out of the stream (the file has them)"
        }
    }
}

/// A stream's state for the status line.
public struct StreamStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        case connecting, live, reconnecting, stopped
    }

    public let stream: String
    public let state: State
    /// What went out over the last second, in kbit/s.
    public let kilobitsPerSecond: Int

    package init(stream: String, state: State, kilobitsPerSecond: Int) {
        self.stream = stream
        self.state = state
        self.kilobitsPerSecond = kilobitsPerSecond
    }

    /// "rtmp live 2.1 Mbit/s", "srt reconnecting".
    public var text: String {
        guard state == .live else { return "\(stream) \(state.rawValue)" }
        let rate = kilobitsPerSecond >= 1000 ? String(format: "%.1f Mbit/s", Double(kilobitsPerSecond) / 1000) : "\(kilobitsPerSecond) kbit/s"
        return "\(stream) live \(rate)"
    }
}

/// A stream's part of a recording's summary.
public struct StreamSummary: Sendable, Equatable {
    public let stream: String
    public let address: String
    public let timeLive: Duration
    public let reconnects: Int
    public let bytesSent: Int64
    public let picturesDropped: Int

    package init(stream: String, address: String, timeLive: Duration, reconnects: Int, bytesSent: Int64, picturesDropped: Int) {
        self.stream = stream
        self.address = address
        self.timeLive = timeLive
        self.reconnects = reconnects
        self.bytesSent = bytesSent
        self.picturesDropped = picturesDropped
    }

    /// "  stream 'rtmp' to rtmp://host/live/****: live 9.80 s, 2 reconnects, 2.3 MiB sent".
    public var line: String {
        var line = "  stream '\(stream)' to \(address): live \(RecordingSummary.seconds(timeLive)), \(reconnects) reconnect\(reconnects == 1 ? "" : "s"), "
            + "\(RecordingSummary.bytes(bytesSent)) sent"
        if picturesDropped > 0 { line += ", \(picturesDropped) pictures left out" }
        return line
    }
}
