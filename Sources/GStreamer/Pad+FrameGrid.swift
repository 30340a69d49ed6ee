import CGStreamer
import CPipcamGst

extension Pad {
    /// Moves every picture passing this pad onto the frame grid of `rate` counted from running time zero.
    ///
    /// A live compositor starts its pictures at its first input's time, anywhere between two grid
    /// points; readers that retime pictures to the nominal rate (ffmpeg decoding, a constant-rate
    /// export) then round two pictures onto one tick when that offset is near half a frame ("non
    /// monotonically increasing dts"). Pictures on the grid never collide. The shift is the same for
    /// every picture and under half a frame.
    public func alignToFrameGrid(rate: Fraction) {
        let packed = UInt(UInt32(bitPattern: rate.numerator)) << 32 | UInt(UInt32(bitPattern: rate.denominator))
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            guard let pad, let info else { return GST_PAD_PROBE_OK }
            let packed = UInt(bitPattern: data)
            pc_probe_info_align_to_rate(pad, info, gint(Int32(bitPattern: UInt32(truncatingIfNeeded: packed >> 32))),
                                        gint(Int32(bitPattern: UInt32(truncatingIfNeeded: packed))))
            return GST_PAD_PROBE_OK
        }, UnsafeMutableRawPointer(bitPattern: packed), nil)
    }

    /// Puts every frame passing this pad on the frame grid of `rate`, as `alignToFrameGrid`, and keeps one
    /// frame a grid point: for a track of its own, where two frames of a jittering camera may round onto
    /// one time and nothing after would choose between them (the compositor does, for the picture).
    public func putFramesOnGrid(rate: Fraction) {
        pc_pad_put_frames_on_grid(pad, rate.numerator, rate.denominator)
    }
}
