import CaptureModel
import GStreamer

/// The appsinks where the streams take what the recording encoded, and each stream's own picture.
public struct StreamTaps: Sendable {
    /// The recording's encoded picture (H.264, as the file gets it).
    public var picture: ElementHandle<AppSink>?
    /// The mix as AAC, encoded once for every stream (the file keeps Opus).
    public var aac: ElementHandle<AppSink>?
    /// The picture of a stream with a bitrate or size of its own, by stream name.
    public var ownPictures: [String: ElementHandle<AppSink>] = [:]
}

/// The streams' part of the recording's graph: taps on the program, nothing more. Each stream runs in
/// a pipeline of its own (`StreamWriter`), fed from these appsinks, so a server that refuses, a network
/// that stalls or a sink that fails never posts an error on the recording's bus nor holds back a
/// buffer of it: an appsink takes every buffer at once, whatever becomes of it.
///
///     picture encoder ─ parse ─┬─ (file)                 mix ─ caps ─┬─ opus ─ (file)
///                              └─ stream-picture                     └─ convert ─ aac ─ parse ─ stream-aac
///     picture caps ─┬─ (file's encoder)
///                   └─ queue(leaky) ─ scale ─ caps ─ x264 ─ parse ─ stream-NAME (a picture of its own)
enum StreamPart {
    /// An appsink that takes whatever comes at once (the writer's callback only hands it on).
    static func addTap(_ name: String, to plan: inout GraphPlan) -> ElementHandle<AppSink> {
        ElementHandle(plan.add(name, .appsink, [("sync", .bool(false)), ("async", .bool(false)), ("max-buffers", .uint(64)), ("drop", .bool(true))]))
    }

    /// The encoded picture's tap, when there are streams that take it as it is.
    static func addPictureTap(_ configuration: SessionConfiguration, to plan: inout GraphPlan) -> String? {
        guard configuration.streams.contains(where: { !$0.encodesItsOwnPicture }) else { return nil }
        let tap = addTap("stream-picture", to: &plan)
        plan.streamTaps.picture = tap
        return tap.name
    }

    /// The mix encoded as AAC once for every stream; the head to link the mix's caps to. FLV carries
    /// AAC, not Opus; in MPEG-TS, Opus is read by fewer receivers (ffmpeg complains of it, vMix refuses
    /// it) than AAC, which every server and player takes: a second encode of the sound costs a fraction
    /// of a percent of a core.
    static func addAAC(_ configuration: SessionConfiguration, bitrate: Int, to plan: inout GraphPlan) -> String? {
        guard !configuration.streams.isEmpty else { return nil }
        // No queue of its own: the encode is a small part of the mixer's work, and its appsink never
        // holds a buffer back, so the mixer's thread does it at no risk to the file's sound.
        let convert = plan.add("stream-aac-convert", .audioconvert)
        // VisualOn's encoder, not libav's: the same AAC-LC at a quarter of the CPU, and without loading
        // libav's plugin (hundreds of elements registered at start, a third of a second of a core).
        let encoder = plan.add("stream-aac-encode", .voaacenc, [("bitrate", .int(Int64(max(bitrate, 64) * 1000)))])
        plan.encoders.append(ElementHandle(encoder))
        let parse = plan.add("stream-aac-parse", .aacparse)
        let tap = addTap("stream-aac", to: &plan)
        plan.streamTaps.aac = tap
        plan.chain([convert, encoder, parse, tap.name])
        return convert
    }

    /// A picture of its own for each stream that asks for a bitrate or size: scaled from the composed
    /// picture and encoded again (the cost model counts it). Returns the heads to link the picture's
    /// caps to.
    static func addOwnPictures(_ configuration: SessionConfiguration, movie: MovieFileOutput, rate: Double, to plan: inout GraphPlan) -> [String] {
        configuration.streams.filter(\.encodesItsOwnPicture).map { stream in
            let prefix = "stream-\(plan.streamTaps.ownPictures.count)"
            let queue = plan.add("\(prefix)-queue", .queue, GraphBuilder.leakyQueue(buffers: max(8, Int(rate.rounded()))))
            var chain = [queue]
            if let size = stream.size {
                chain.append(plan.add("\(prefix)-scale", .videoscale))
                chain.append(plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(GraphCaps.picture(width: size.width, height: size.height)))]))
            }
            let bitrate = stream.videoBitrate ?? movie.videoBitrate ?? configuration.preset.videoBitrate
            let (factory, properties) = EncoderChoice.encoder(movie.encoder, bitrate: bitrate, frameRate: rate, keyFrameSeconds: 2, speed: movie.encoderSpeed)
            let encoder = plan.add("\(prefix)-encode", factory, properties)
            plan.encoders.append(ElementHandle(encoder))
            let tap = addTap(prefix, to: &plan)
            plan.streamTaps.ownPictures[stream.name] = tap
            plan.chain(chain + [encoder, plan.add("\(prefix)-parse", .h264parse), tap.name])
            return queue
        }
    }
}
