import CaptureModel
import GStreamer

/// A stream's own pipeline, fed from Swift with the recording's encoded buffers (`StreamWriter`):
///
///     appsrc (picture) ─ (h264parse) ─┐
///     appsrc (sound) ─────────────────┴─ flvmux ─ rtmp2sink  |  mpegtsmux ─ srtsink  |  hlssink2
///
/// Not live: the buffers come timed, and the muxer waits for both; the sink sends as fast as the network
/// takes it (no clock to wait for), so what falls behind piles up in the appsrc, where the writer sees it.
struct StreamPipelinePlan {
    var plan = GraphPlan()
    let picture: ElementHandle<AppSource>
    let sound: ElementHandle<AppSource>?
    /// The element that sends: its figures say whether the server has the stream (`StreamSinkWatch`).
    let sink: ElementHandle<Element>

    /// An HLS stream's playlist: written once its first segment is.
    static func playlist(in folder: String) -> String { folder + "/index.m3u8" }

    init(_ stream: StreamOutput, pictureCaps: Caps, soundCaps: Caps?) {
        picture = plan.addAppSource("picture", caps: pictureCaps)
        var pictureEnd = picture.name
        if case .rtmp = stream.destination {
            // FLV takes the recording's picture as it is: its parameters go once, at the start.
        } else {
            // MPEG-TS wants the picture as a byte stream, with its parameters before every key frame: a
            // viewer joining late, or a server that lost the start, decodes from the next one.
            pictureEnd = plan.add("picture-parse", .h264parse, [("config-interval", .int(-1))])
            plan.link(picture.name, to: pictureEnd)
        }
        // The sound comes parsed (`StreamPart`).
        var sound: ElementHandle<AppSource>?
        if let soundCaps { sound = plan.addAppSource("sound", caps: soundCaps) }
        self.sound = sound
        let soundEnd = sound?.name
        switch stream.destination {
        case .rtmp:
            let mux = plan.add("mux", .flvmux, [("streamable", .bool(true))])
            // Chunks of 4 KiB, as OBS sends, not RTMP's first 128 bytes: a thirtieth of the chunks to
            // frame for the same pictures.
            // The user and password after the location, which would otherwise set them from its own.
            let login: [(String, PropertyValue)] = [stream.user.map { ("username", .string($0)) }, stream.password.map { ("password", .string($0)) }]
                .compactMap { $0 }
            sink = ElementHandle(plan.add("send", .rtmp2sink, [("location", .string(stream.sinkAddress)), ("sync", .bool(false)),
                                                                ("chunk-size", .uint(4096))] + login))
            plan.link(pictureEnd, to: mux, "video")
            if let soundEnd { plan.link(soundEnd, to: mux, "audio") }
            plan.link(mux, to: sink.name)
        case .srtCaller, .srtListener:
            // SRT's live messages carry 1316 bytes at most: seven MPEG-TS packets (alignment 7).
            let mux = plan.add("mux", .mpegtsmux, [("alignment", .int(7))])
            // SRT's live mode drops what is later than its latency: the stream is sent at the pace of
            // its timestamps (sync), never in bursts. A listener with nobody calling yet discards rather
            // than holding the stream back.
            sink = ElementHandle(plan.add("send", .srtsink, [("uri", .string(stream.sinkAddress)), ("sync", .bool(true)),
                                                              ("wait-for-connection", .bool(false))]))
            // Its pads are asked for by template, not by name: a name is taken for the stream's PID,
            // and PIDs below 0x40 are refused.
            plan.link(pictureEnd, to: mux)
            if let soundEnd { plan.link(soundEnd, to: mux) }
            plan.link(mux, to: sink.name)
        case .hls(let folder):
            sink = ElementHandle(plan.add("send", .hlssink2, [
                ("location", .string(folder + "/segment%05d.ts")), ("playlist-location", .string(Self.playlist(in: folder))),
                ("target-duration", .uint(2)), ("playlist-length", .uint(6)), ("max-files", .uint(12)),
            ]))
            plan.link(pictureEnd, to: sink.name, "video")
            if let soundEnd { plan.link(soundEnd, to: sink.name, "audio") }
        }
    }
}
