import CaptureModel
import GStreamer

/// A microphone's processing (`SoundProcessing`), placed after its source's queue so that it runs on the
/// queue's thread, never the sound card's: high-pass → noise suppression → gain → limiter, the gain and
/// the limiter in floating point so a gain past full scale reaches the limiter whole. The gain is always
/// there (it passes buffers untouched at 0 dB) so it can change while recording; the other stages are
/// made only when asked for, and turning one on or off rebuilds the graph.
enum SoundStages {
    /// Makes the stages, linked in order; returns the first and the last.
    static func add(_ sound: SoundProcessing, prefix: String, to plan: inout GraphPlan) -> (first: String, last: String) {
        var chain: [String] = []
        if let cut = sound.highPass {
            chain.append(plan.add("\(prefix)-high-pass", .audiocheblimit, [("mode", .string("high-pass")), ("cutoff", .double(cut)), ("poles", .int(4))]))
        }
        if let (level, passes) = suppressor(sound.noiseSuppression) {
            // webrtcdsp takes 16-bit interleaved sound (or non-interleaved float, which nothing else here makes).
            chain.append(plan.add("\(prefix)-suppress-convert", .audioconvert))
            chain.append(plan.add("\(prefix)-suppress-caps", .capsfilter, [("caps", .caps(GraphCaps.suppressible))]))
            for pass in 1...passes {
                chain.append(plan.add("\(prefix)-suppress-\(pass)", .webrtcdsp, [
                    // Its echo canceller waits for a probe of what the speakers play, and would refuse to start;
                    // its gain control and high-pass would change what pipcam's own stages are set to do.
                    ("echo-cancel", .bool(false)), ("gain-control", .bool(false)), ("high-pass-filter", .bool(false)),
                    ("noise-suppression", .bool(true)), ("noise-suppression-level", .string(level)),
                ]))
            }
            chain.append(plan.add("\(prefix)-float-convert", .audioconvert))
        }
        chain.append(plan.add("\(prefix)-float", .capsfilter, [("caps", .caps(GraphCaps.floatSound))]))
        chain.append(plan.add("\(prefix)-gain", .volume, [("volume", .double(sound.gainFactor))]))
        if let threshold = sound.limiterThreshold {
            // A hard knee with no ratio: no sample passes the ceiling, however far over it comes.
            chain.append(plan.add("\(prefix)-limiter", .audiodynamic, [
                ("mode", .string("compressor")), ("characteristics", .string("hard-knee")), ("ratio", .double(0)), ("threshold", .double(threshold)),
            ]))
        }
        plan.chain(chain)
        return (chain[0], chain[chain.count - 1])
    }

    /// WebRTC's level and how many passes make each of pipcam's (see `SoundProcessing.NoiseSuppression`).
    private static func suppressor(_ strength: SoundProcessing.NoiseSuppression) -> (level: String, passes: Int)? {
        switch strength {
        case .off: nil
        case .low: ("low", 1)
        case .moderate: ("moderate", 1)
        case .high: ("moderate", 2)
        case .veryHigh: ("very-high", 2)
        }
    }
}
