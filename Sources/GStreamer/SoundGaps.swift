import CGStreamer
import CPipcamGst

/// The sound lost as it passes a pad: what a leaky queue let go when the machine fell behind, or a
/// sound card overran. It is time the stream skips, so silence recorded is not lost and a switch turned
/// off (its gaps) is not either. A source made again starts a new stream, whose time away is said
/// elsewhere; the count goes on from there. The sound missing before the first gets through is lost too.
public final class SoundGaps: @unchecked Sendable {
    private let gaps: OpaquePointer

    /// Counts at `pad`. With `source`, a pad upstream of anything that may let sound go (the device's),
    /// the sound before the first that reaches `pad` is counted too: a device that began late, and what
    /// was let go before the first got through.
    public init(at pad: Pad, from source: Pad? = nil) {
        gaps = pc_sound_gaps_new()
        pc_sound_gaps_attach(gaps, pad.pad)
        if let source { pc_sound_gaps_attach_source(gaps, source.pad) }
    }

    deinit { pc_sound_gaps_unref(gaps) }

    /// Where the file ends (a running time): sound lost past it is not counted, as the file keeps none.
    /// A machine behind its clock goes on reading its sound cards past a timed recording's end.
    public func end(at time: Duration) {
        pc_sound_gaps_end(gaps, max(.zero, time).nanoseconds)
    }

    /// The sound lost so far.
    public var lost: Duration {
        .nanoseconds(Int64(pc_sound_gaps_lost(gaps)))
    }
}
