import CGStreamer
import CPipcamGst

extension Pad {
    /// Passes each request for a key frame that reaches this (an encoder's source) pad on to the encoders
    /// whose source pads are `targets`, at the first picture of a `rate` grid at or after the time asked:
    /// the pictures of every video track of a part then begin with a key frame where the part begins.
    public func forwardKeyFrameRequests(to targets: [Pad], rate: Fraction) {
        guard !targets.isEmpty else { return }
        var raws: [UnsafeMutablePointer<GstPad>?] = targets.map { $0.pad }
        raws.withUnsafeMutableBufferPointer { buffer in
            pc_pad_forward_key_unit_requests(pad, buffer.baseAddress, guint(buffer.count), rate.numerator, rate.denominator)
        }
    }

    /// Asks the encoder upstream of this pad for a key frame now: a stream that starts or resumes
    /// begins with one, rather than waiting for the encoder's next.
    public func requestKeyFrame() {
        _ = pc_pad_request_key_frame(pad)
    }
}
