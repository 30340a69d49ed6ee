import CGStreamer

extension Pad {
    /// Whether this compositor input has a frame in the picture the compositor made last. A frame that
    /// reached the input while that picture was being made is not in it: a live compositor does not wait
    /// for a late input. Read from a probe on the compositor's source pad (its streaming thread, between
    /// one picture and the next), where the answer is the picture that probe sees.
    public var hasFrameInLastPicture: Bool {
        gst_video_aggregator_pad_has_current_buffer(pc_video_aggregator_pad(pad)) != 0
    }
}
