import CGStreamer
import CPipcamGst

extension Pad {
    /// Frees a frame that enters this queue's sink behind more than `kept` others once it is done with,
    /// instead of giving it back to the pool it came from.
    ///
    /// A pool keeps every buffer it ever made until it stops. After a moment when the encoder fell behind
    /// (a busy machine, a stall), a pool that had to make a queue's worth of extra frames would keep them
    /// to the end of the recording: 21 pictures of 720p, 29 MB, after a stall of 2 s. Frames made while
    /// the queue is short still go back to their pool, so the steady state reuses them as before.
    public func freeBackloggedFrames(beyond kept: Int) {
        pc_queue_free_backlogged_frames(pad, guint(max(0, kept)))
    }
}
