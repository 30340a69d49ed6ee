import CGStreamer
import CPipcamGst

/// The sound lost as it passes a pad: what a leaky queue let go when the machine fell behind, or a
/// sound card overran. It is time the stream skips, so silence recorded is not lost and a switch turned
/// off (its gaps) is not either. A source made again starts a new stream, whose time away is said
/// elsewhere; the count goes on from there.
public final class SoundGaps: @unchecked Sendable {
    private let gaps: OpaquePointer

    public init(at pad: Pad) {
        gaps = pc_sound_gaps_new()
        pc_sound_gaps_attach(gaps, pad.pad)
    }

    deinit { pc_sound_gaps_unref(gaps) }

    /// The sound lost so far.
    public var lost: Duration {
        .nanoseconds(Int64(pc_sound_gaps_lost(gaps)))
    }
}
