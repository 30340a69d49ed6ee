import CGStreamer
import CPipcamGst

/// Pauses a recording without stopping its pipeline: placed on every encoder's input, it drops what
/// falls in a pause and moves what follows earlier by the pauses before it, so the file has no paused
/// stretch and its timestamps go on. Pictures and sound are cut by their own running times, not by when
/// they reach the gate, so each track pauses and resumes at the same instant whatever its latency.
public final class PauseGate: @unchecked Sendable {
    private let gate: OpaquePointer

    /// Pauses start and end on the picture's frame grid of `frameRate` (counted from running time zero,
    /// as the grid probes count it), so each leaves out whole pictures and the file's pictures go on one
    /// frame apart; with none, at the times given.
    public init(frameRate: Fraction? = nil) {
        gate = pc_pause_gate_new(frameRate?.numerator ?? 0, frameRate?.denominator ?? 0)
    }

    deinit { pc_pause_gate_unref(gate) }

    /// Puts what passes `pad` behind the gate.
    public func attach(to pad: Pad) {
        pc_pause_gate_attach(gate, pad.pad)
    }

    /// Pauses from running time `time` on (from the next grid point); false when paused already.
    @discardableResult
    public func pause(at time: Duration) -> Bool {
        pc_pause_gate_pause(gate, GstClockTime(max(.zero, time).nanoseconds)) != 0
    }

    /// Resumes at running time `time` (at the next grid point); returns how long the pause lasted, nil when none was open.
    public func resume(at time: Duration) -> Duration? {
        let length = pc_pause_gate_resume(gate, GstClockTime(max(.zero, time).nanoseconds))
        return length == pc_clock_time_none() ? nil : .nanoseconds(Int64(length))
    }

    /// Where running time `time` falls in the recording: earlier by the pauses before it, and at the
    /// pause's start when it falls in one.
    public func fileTime(of time: Duration) -> Duration {
        .nanoseconds(Int64(pc_pause_gate_file_time(gate, GstClockTime(max(.zero, time).nanoseconds))))
    }

    /// When the pause under way began (running time), nil when not paused; and how long all pauses have
    /// lasted up to `time`.
    public func state(at time: Duration) -> (pausedSince: Duration?, total: Duration) {
        var total: GstClockTime = 0
        let since = pc_pause_gate_open_since(gate, GstClockTime(max(.zero, time).nanoseconds), &total)
        return (since == pc_clock_time_none() ? nil : .nanoseconds(Int64(since)), .nanoseconds(Int64(total)))
    }
}
