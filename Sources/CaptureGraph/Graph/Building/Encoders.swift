import CaptureModel
import GStreamer

/// The encoders every recorded stream goes through, each ending in a deep queue before whatever takes
/// its packets (the file's muxer today). Encoded streams must never lose data; the queue absorbs the
/// encoder's bursts.
enum Encoders {
    /// Three seconds of encoded packets, and a network camera's `delay` more: a track that does not wait
    /// for the camera (a camera's own) is that far ahead of the picture and the mix, which do.
    private static func muxQueue(_ plan: GraphPlan) -> [(String, PropertyValue)] {
        [("max-size-buffers", .uint(0)), ("max-size-bytes", .uint(0)), ("max-size-time", ProgramStage.latency(.seconds(3), in: plan))]
    }

    /// Returns the first and last element of encoder → parser → queue. The encoded frames also go to
    /// `taps` (the live photos' ring, the streams): references to the same buffers, no copy, no second
    /// encode.
    static func addVideo(_ movie: MovieFileOutput, prefix: String, bitrate: Int, rate: Double, keyFrameSeconds: Double = 2,
                         alsoTo taps: [String] = [], to plan: inout GraphPlan) -> (first: String, last: String) {
        let (factory, properties) = EncoderChoice.encoder(movie.encoder, bitrate: bitrate, frameRate: rate, keyFrameSeconds: keyFrameSeconds,
                                                          speed: movie.encoderSpeed)
        let encoder = plan.add("\(prefix)-encode", factory, properties)
        plan.encoders.append(ElementHandle(encoder))
        let parse = plan.add("\(prefix)-parse", .h264parse)
        let queue = plan.add("\(prefix)-mux-queue", .queue, muxQueue(plan))
        plan.link(encoder, to: parse)
        plan.fanOut(from: parse, to: [queue] + taps, tee: "\(prefix)-tee")
        return (encoder, queue)
    }

    /// Returns the first and last element of convert → Opus encoder → queue, fed from `upstream` when
    /// given (the caller links it otherwise).
    static func addSound(_ movie: MovieFileOutput, prefix: String, after upstream: String?, to plan: inout GraphPlan) -> (first: String, last: String) {
        let convert = plan.add("\(prefix)-convert", .audioconvert)
        let encoder = plan.add("\(prefix)-encode", .opusenc, [("bitrate", .int(Int64(movie.audioBitrate * 1000)))])
        plan.encoders.append(ElementHandle(encoder))
        let queue = plan.add("\(prefix)-mux-queue", .queue, muxQueue(plan))
        plan.chain([upstream].compactMap { $0 } + [convert, encoder, queue])
        return (convert, queue)
    }
}
