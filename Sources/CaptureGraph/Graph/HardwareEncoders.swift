import CaptureModel
import Foundation
import GStreamer
import Locking

/// The hardware H.264 encoder `encoder: automatic` and `encoder: hardware` record with, found once a
/// process. GStreamer can list an encoder that then cannot start: a VA-API driver without H.264 encoding,
/// a board's encoder held by another program, an OpenMAX library that is not there. Each listed candidate
/// is asked to encode a few small pictures; the first that does records, and each that does not is said in
/// one line (the recording then goes on with x264).
package enum HardwareEncoders {
    package struct Trial: Sendable, Equatable {
        package var chosen: ElementFactory?
        /// One line for each installed encoder that did not start, with GStreamer's reason.
        package var refusals: [String]
    }

    /// What `PIPCAM_HARDWARE_ENCODERS` names (space-separated, in order), or VA-API's encoders and then a
    /// V4L2 memory-to-memory one. Only hardware encoders are taken; other names are left out.
    package static var candidates: [ElementFactory] {
        guard let named = ProcessInfo.processInfo.environment["PIPCAM_HARDWARE_ENCODERS"], !named.isEmpty else { return EncoderChoice.hardwareFactories }
        return named.split(separator: " ").compactMap { ElementFactory(rawValue: String($0)) }.filter(EncoderChoice.namedHardwareFactories.contains)
    }

    /// Held through the trial: a second caller waits for the first's answer rather than trying the same
    /// encoder at once (a board's encoder serves one at a time, and would seem busy).
    private static let trying = NSLock()
    nonisolated(unsafe) private static var found: Trial?

    /// The trial, made at the first call (a few hundred milliseconds for each installed candidate, nothing
    /// when none is installed) and kept.
    package static func trial() -> Trial {
        trying.lock()
        defer { trying.unlock() }
        if let found { return found }
        let made = choose(among: candidates, isInstalled: \.isInstalled, starts: startsInTime)
        found = made
        return made
    }

    /// Makes the trial a recording with `configuration` needs, off Swift's cooperative threads: an encoder may
    /// take seconds to refuse, and the plan then reads the result at once.
    package static func prepare(for configuration: SessionConfiguration) async {
        guard configuration.movieFile.map({ $0.encoder != .software }) == true else { return }
        _ = try? await Blocking.run { trial() }
    }

    /// The first installed candidate that starts, and a line for each installed one before it that does not.
    package static func choose(among candidates: [ElementFactory], isInstalled: (ElementFactory) -> Bool,
                               starts: (ElementFactory) -> String?) -> Trial {
        var refusals: [String] = []
        for candidate in candidates where isInstalled(candidate) {
            guard let reason = starts(candidate) else { return Trial(chosen: candidate, refusals: refusals) }
            refusals.append("\(candidate.rawValue) is installed but did not start: \(reason)")
        }
        return Trial(chosen: nil, refusals: refusals)
    }

    /// GStreamer's message without its full stop, with the flow result the source stopped on when the
    /// message says only that streaming stopped ("Internal data stream error").
    static func reason(_ text: String, stoppedFlow: String?) -> String {
        let message = text.hasSuffix(".") ? String(text.dropLast()) : text
        return stoppedFlow.map { "\(message), \($0)" } ?? message
    }

    /// `starts` on a thread of its own, given 8 s: a driver that hangs in a state change is left to it, and
    /// the encoder counts as refusing.
    static func startsInTime(_ factory: ElementFactory) -> String? {
        Blocking.within(.seconds(8), "pipcam-encoder-trial", { starts(factory) }) ?? "no answer within 8 s"
    }

    /// Nil when `factory`, set as a recording sets it, encodes a few small pictures within seconds; else why
    /// not, in GStreamer's words.
    static func starts(_ factory: ElementFactory) -> String? {
        let encoder = EncoderChoice.settings(of: factory, bitrate: 1000, keyInterval: 30)
        var plan = GraphPlan()
        let caps = CapsBuilder(.rawVideo).set("format", "I420").set("width", 320).set("height", 240).set("framerate", Fraction(30, 1)).caps
        plan.chain([plan.add("trial-src", .videotestsrc, [("num-buffers", .int(5))]), plan.add("trial-caps", .capsfilter, [("caps", .caps(caps))]),
                    plan.add("trial-convert", .videoconvert), plan.add("trial-encode", factory, encoder),
                    plan.add("trial-end", .fakesink, [("sync", .bool(false))])])
        let pipeline: Pipeline
        do { pipeline = try PipelineAssembler.assemble(plan, name: "pipcam-encoder-trial") } catch { return "\(error)" }
        let outcome = Answer<String?>()
        let subscription = pipeline.bus.subscribe { message in
            switch message.kind {
            case .eos: outcome.give(nil)
            case .error(let text, _): outcome.give(reason(text, stoppedFlow: message.stoppedFlow))
            default: return
            }
        }
        defer {
            subscription.cancel()
            _ = try? pipeline.setState(.null)
        }
        do {
            try pipeline.setState(.playing)
        } catch {
            // Refused at once: GStreamer's reason is on its way to the bus.
            return outcome.wait(atMost: .seconds(1)).flatMap { $0 } ?? "\(error)"
        }
        return outcome.wait(atMost: .seconds(5)) ?? "no picture within 5 s"
    }
}
