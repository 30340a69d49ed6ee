import CaptureModel
import Foundation
import GStreamer

/// What a stream's sink says of its connection, read from its `stats` (polled: the sinks post nothing
/// when they connect): connected only once the server accepted the stream, and the bytes its transport
/// took. rtmp2sink shows its connection's figures only once the server answered the publish (all zero
/// before); srtsink shows SRT's own statistics (`negotiated-latency-ms` among them) only while its
/// handshake is done, and counts what it sent in `bytes-sent-total`; an HLS stream is live once its
/// playlist is written, and what it wrote is what it was given. A listening SRT stream is live while it
/// listens.
struct StreamSinkWatch {
    let destination: StreamOutput.Destination
    let sink: Element
    /// An HLS playlist's time when the attempt began: one no newer is an earlier attempt's or run's.
    private let playlistBefore: Date?

    init(destination: StreamOutput.Destination, sink: Element) {
        self.destination = destination
        self.sink = sink
        playlistBefore = Self.playlistTime(of: destination)
    }

    /// Whether the server has the stream now, and the bytes sent so far on this connection (`pushed`:
    /// what the stream handed the pipeline, for HLS).
    func read(pushed: Int64) -> (connected: Bool, bytes: Int64) {
        switch destination {
        case .rtmp:
            let stats = try? sink.structureProperty("stats")
            let connected = (stats?.int("out-chunk-size") ?? 0) > 0
            return (connected, connected ? Int64(stats?.int("out-bytes-total") ?? 0) : 0)
        case .srtCaller:
            let stats = try? sink.structureProperty("stats")
            return (stats?["negotiated-latency-ms"] != nil, Int64(stats?.int("bytes-sent-total") ?? 0))
        case .srtListener:
            return (true, Int64((try? sink.structureProperty("stats"))?.int("bytes-sent-total") ?? 0))
        case .hls:
            let now = Self.playlistTime(of: destination)
            let written = now != nil && now != playlistBefore
            return (written, written ? pushed : 0)
        }
    }

    private static func playlistTime(of destination: StreamOutput.Destination) -> Date? {
        guard case .hls(let folder) = destination else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: StreamPipelinePlan.playlist(in: folder)))?[.modificationDate] as? Date
    }
}
