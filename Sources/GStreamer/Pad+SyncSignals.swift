import CGStreamer
import CPipcamGst

extension Pad {
    /// Turns the black 8-bit YUV pictures passing this pad into the sync camera's: lit for the first 100 ms
    /// of each whole second of the system's monotonic clock (which pipcam's pipelines run on), each
    /// picture as bright as the share of its time that falls in it. Together with `soundSyncBeeps` on a
    /// microphone of the same clock, a recording shows how far sound and picture are apart (`SyncSignals`
    /// in the tests reads it back).
    public func drawSyncFlashes() {
        pc_pad_draw_sync_flashes(pad)
    }

    /// Turns the silent mono 16-bit sound passing this pad into the sync microphone's: a 1 kHz beep for the
    /// first 100 ms of each whole second of the system's monotonic clock, starting on the second.
    /// `heardAfter` is how long after its time a sample is heard: zero for what a pipeline records, the
    /// pipeline's latency for sound a sink plays (it plays each sample that long after its time). `late`
    /// puts each beep that long after its second: a microphone that is late.
    public func soundSyncBeeps(heardAfter: Duration = .zero, late: Duration = .zero) {
        pc_pad_sound_sync_beeps(pad, (heardAfter - late).signedNanoseconds)
    }
}
