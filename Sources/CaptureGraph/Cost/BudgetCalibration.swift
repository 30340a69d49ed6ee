import CaptureModel
import Foundation
import GStreamer

/// Measures the machine's `PixelBudget` by running each kind of picture work on a short clip of
/// 1280x720 test pictures as fast as the machine goes, and timing the CPU it took. Every stage's
/// time is taken against the same source alone, so what remains is the stage's own cost.
public enum BudgetCalibration {
    /// Frames per run: enough that start-up costs vanish, few enough that all runs take a few seconds.
    public static let frames = 120
    static let width = 1280, height = 720

    public static func measure() async throws -> PixelBudget {
        try Gst.initialize()
        let pixels = Double(width * height * frames)
        let raw = source(format: "I420")
        let packed = source(format: "YUY2")
        let plain = try await cpuSeconds(raw)
        // A synthetic camera as the graph builds it: the caps leave the format to the compositor.
        let drawn = CaptureMode(pixelFormat: nil, width: width, height: height, frameRate: 30).caps()
        let generate = try await cpuSeconds(source(caps: drawn) + [(.timeoverlay, [("text", .string("calibration"))])] + composed)
        let encode = try await cpuSeconds(raw + [encoder])
        let packedPlain = try await cpuSeconds(packed)
        let composite = try await cpuSeconds(packed + composed)
        let jpeg = try await cpuSeconds(raw + [(.jpegenc, [])])
        // MJPEG as the graph decodes it: with pipcam's decoder.
        let decode = try await cpuSeconds(raw + [(.jpegenc, []), (.jpegDecoder, [])])
        /// A stage's own time, never less than a twentieth of the run's (noise can make the difference vanish).
        func own(_ total: Double, _ base: Double) -> Double { max(total - base, total / 20) }
        return PixelBudget(generate: pixels / max(generate, 0.001),
                           decode: pixels / own(decode, jpeg),
                           composite: 2 * pixels / own(composite, packedPlain),
                           encode: pixels / own(encode, plain),
                           cores: ProcessInfo.processInfo.activeProcessorCount,
                           measured: Date(), gstreamer: Gst.version, encoder: encoderSettings)
    }

    /// x264 tuned as recordings tune it, so the measurement follows when the tuning changes.
    static var encoder: Stage {
        EncoderChoice.encoder(.software, bitrate: SessionPreset.hd720.videoBitrate, frameRate: 30)
    }

    /// The encoder's settings in words; a budget measured with others is measured again.
    public static var encoderSettings: String {
        ([encoder.factory.rawValue] + encoder.properties.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
    }

    typealias Stage = (factory: ElementFactory, properties: [(String, PropertyValue)])

    static func source(format: String) -> [Stage] {
        source(caps: CaptureMode(pixelFormat: format, width: width, height: height, frameRate: 30).caps())
    }

    /// Moving colour bars: a still picture would make the encoder's work look far cheaper than a camera's.
    static func source(caps: Caps) -> [Stage] {
        [(.videotestsrc, [("num-buffers", .int(Int64(frames))), ("pattern", .string("smpte")), ("horizontal-speed", .int(4))]),
         (.capsfilter, [("caps", .caps(caps))])]
    }

    /// Into a picture of the same size, as the compositor makes it for the encoder.
    static var composed: [Stage] {
        [(.compositor, []), (.capsfilter, [("caps", .caps(GraphCaps.picture(width: width, height: height)))])]
    }

    /// CPU seconds the process spends running `stages` into a sink that never waits.
    static func cpuSeconds(_ stages: [Stage]) async throws -> Double {
        var plan = GraphPlan()
        plan.chain((stages + [(.fakesink, [("sync", .bool(false))])]).enumerated().map { index, stage in
            plan.add("\(stage.factory.rawValue)-\(index)", stage.factory, stage.properties)
        })
        let pipeline = try PipelineAssembler.assemble(plan, name: "calibration")
        let start = processCPUTime()
        do {
            try await pipeline.runToEnd(timeout: .seconds(60))
        } catch GStreamerError.timeout {
            throw CaptureError.calibration(.tookTooLong)
        } catch GStreamerError.pipelineError(_, let text, _) {
            throw CaptureError.calibration(.failed(reason: text))
        }
        return processCPUTime() - start
    }

    /// CPU time of every thread of this process, in seconds.
    static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
