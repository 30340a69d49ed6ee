import Foundation

/// What a stream reports while the recording runs: the events, the status line's state and the
/// summary's numbers. Each carries the stream's name and shown address, never its secrets.
public struct StreamEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The server accepted the stream (RTMP's publish answered, SRT's handshake done, HLS's first
        /// segment written; a listener: it listens). Said once, and again only after a failure.
        case connected
        /// The stream was live and its connection went; tried again after `retry`.
        case lost(reason: String, retry: Duration)
        /// The stream cannot connect, for this reason; tried again by itself. Said once for each reason.
        case failing(reason: String)
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
        case .failing(let reason): "stream '\(stream)' cannot connect: \(reason); pipcam keeps trying"
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
    /// Connections made again after one was lost.
    public let reconnects: Int
    /// What the transport took for a live connection (never what waited for one).
    public let bytesSent: Int64
    public let picturesDropped: Int
    /// Whether the server ever accepted the stream; how often pipcam tried; the last failure's cause.
    public var everConnected = true
    public var attempts = 0
    public var lastFailure: String?

    package init(stream: String, address: String, timeLive: Duration, reconnects: Int, bytesSent: Int64, picturesDropped: Int) {
        self.stream = stream
        self.address = address
        self.timeLive = timeLive
        self.reconnects = reconnects
        self.bytesSent = bytesSent
        self.picturesDropped = picturesDropped
    }

    /// "  stream 'rtmp' to rtmp://host/live/****: live 9.80 s, 2 reconnects, 2.3 MiB sent", or "…: never
    /// connected, tried 7 times: nobody answers at 192.0.2.1:1935".
    public var line: String {
        guard everConnected else {
            return "  stream '\(stream)' to \(address): never connected, tried \(attempts) time\(attempts == 1 ? "" : "s")"
                + (lastFailure.map { ": " + $0 } ?? "")
        }
        var line = "  stream '\(stream)' to \(address): live \(RecordingSummary.seconds(timeLive)), \(reconnects) reconnect\(reconnects == 1 ? "" : "s"), "
            + "\(RecordingSummary.bytes(bytesSent)) sent"
        if picturesDropped > 0 { line += ", \(picturesDropped) pictures left out" }
        return line
    }
}
