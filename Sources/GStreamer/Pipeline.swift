import CGStreamer
import Foundation
import Locking

/// A top-level bin with a clock and a bus. The wrapper that created the pipeline owns its run state:
/// it brings it to NULL before letting go, as GStreamer requires.
public final class Pipeline: Bin, @unchecked Sendable {
    var pipeline: UnsafeMutablePointer<GstPipeline> { pc_pipeline(raw) }

    /// The pipeline's bus, with one reader thread that hands every message to subscribers.
    public let bus: Bus

    public init(name: String? = nil) throws {
        let made = try Element.create("pipeline", name: name)
        bus = Bus(adopting: gst_pipeline_get_bus(pc_pipeline(made)))
        super.init(made, .sinkFloating)
    }

    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
    }

    /// Plays a pipeline that ends by itself (a still to encode, a clip to write, a measurement) to its
    /// end: starts it, runs `whilePlaying` (to feed it), and waits for end-of-stream. The first error ends
    /// the wait and is thrown, naming the element; so is a wait longer than `timeout`. Stopped either way.
    public func runToEnd(timeout: Duration, whilePlaying: () throws -> Void = {}) async throws {
        let messages = bus.messages()
        defer { _ = try? setState(.null) }
        // Sources start while the pipeline goes to PLAYING; the sinks finish prerolling once data arrives.
        try setState(.playing)
        try whilePlaying()
        let end = try await messages.first(timeout: timeout) { message in
            switch message.kind {
            case .eos, .error: return true
            default: return false
            }
        }
        switch end?.kind {
        case .eos?: return
        case .error(let text, let debug)?: throw GStreamerError.pipelineError(source: end?.sourceName ?? name, message: text, debug: debug)
        default: throw GStreamerError.timeout("waiting for '\(name)' to finish")
        }
    }

    /// Ends a recording the safe way: sends EOS so muxers write their index, waits for it to reach the
    /// bus, then stops. Without this a Matroska file would lack its duration and cues.
    ///
    /// Only EOS (or the timeout) ends the wait: an error from one branch while draining must not cut
    /// short the others. If EOS never comes, the first error seen (or the timeout) is thrown.
    /// `endStreams` replaces the usual EOS event to the sources, e.g. to push EOS in just downstream of
    /// sources that cannot send one themselves.
    public func finish(timeout: Duration = .seconds(10), endStreams: (() -> Void)? = nil) async throws {
        let messages = bus.messages()
        defer { _ = try? setState(.null) }
        guard currentState == .playing || currentState == .paused else { return }
        if let endStreams { endStreams() } else { sendEndOfStream() }
        let firstError = Locked<GStreamerError?>(nil)
        let name = self.name
        let ended = try await messages.first(timeout: timeout) { message in
            if case .error(let text, let debug) = message.kind {
                firstError.withValue { $0 = $0 ?? .pipelineError(source: message.sourcePath ?? "pipeline", message: text, debug: debug) }
            }
            if case .application(let structure) = message.kind, structure.name == Self.cutShortMessage {
                firstError.withValue { $0 = .timeout("the end of the stream on '\(name)', cut short") }
                return true
            }
            if case .eos = message.kind { return true }
            return false
        }
        guard case .eos? = ended?.kind else { throw firstError.value ?? GStreamerError.timeout("waiting for end of stream on '\(name)'") }
    }

    /// Ends a `finish` under way at once, without waiting for the end of the streams: what has not
    /// reached the sinks yet is lost.
    public func cutShort() {
        _ = try? bus.post(applicationMessage: Self.cutShortMessage)
    }

    static let cutShortMessage = "pipcam-cut-short"

    /// Runs the pipeline on the system's monotonic clock instead of one a source offers: cameras and all
    /// microphones are timed on one base. A sound card is not resampled to it: alsasrc's slave method
    /// ("skew", GStreamer's "resample" falls back to it for sources) counts the card's samples from its
    /// first buffer, and moves them only once they are a whole ring buffer off the clock.
    public func useSystemClock() {
        let clock = gst_system_clock_obtain()
        gst_pipeline_use_clock(pipeline, clock)
        if let clock { gst_object_unref(clock) }
    }

    /// Time since the pipeline started playing, on its clock.
    public var runningTime: Duration? {
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(clock) }
        let now = gst_clock_get_time(clock)
        let base = gst_element_get_base_time(element)
        return now >= base ? .nanoseconds(Int64(now - base)) : nil
    }

    /// The clock every element of the pipeline runs on (one clock keeps cameras and microphones in sync).
    public var clockName: String? {
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(clock) }
        return takeString(gst_object_get_name(pc_gst_object(clock)))
    }
}
