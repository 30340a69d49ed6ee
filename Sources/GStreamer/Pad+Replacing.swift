import CGStreamer
import CPipcamGst
import Foundation
import Locking

/// What it takes to swap one part of a running pipeline for another (a camera that went away for a
/// picture that says so, then for the camera again) without the rest of the pipeline noticing.
extension Pad {
    /// Keeps end-of-stream from leaving this source pad. A live source that fails sends it as it stops;
    /// past this pad it would end the branch for good (an aggregator's pad stays ended), where the
    /// recording wants the branch to wait for the device's return. Ending a recording sends its own
    /// end-of-stream further downstream, so nothing else needs this one.
    @discardableResult
    public func holdEndOfStream() -> UInt {
        dropEvents(GST_EVENT_EOS, going: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)
    }

    /// Keeps requests to renegotiate from going upstream of this pad: for a source whose format a caps
    /// filter upstream states, they change nothing, yet each makes it ask downstream again how to
    /// allocate, a question that waits behind every queue between it and the compositor. An
    /// input-selector asks its input this each time it turns to it.
    @discardableResult
    public func ignoreRenegotiationRequests() -> UInt {
        dropEvents(GST_EVENT_RECONFIGURE, going: GST_PAD_PROBE_TYPE_EVENT_UPSTREAM)
    }

    /// Hands `keep` a copy of the picture passing this pad at most once every `interval`: the pixels are
    /// copied, so the picture outlives its device. A picture a second costs a copy a second, where
    /// holding on to the device's own buffer would take one of the few it captures into.
    @discardableResult
    public func copyPictures(every interval: Duration, _ keep: @escaping @Sendable (Sample) -> Void) -> UInt {
        let last = Locked<ContinuousClock.Instant?>(nil)
        return addRawBufferProbe { pad, buffer in
            let now = ContinuousClock.now
            let isDue = last.withValue { last in
                guard last.map({ now - $0 >= interval }) ?? true else { return false }
                last = now
                return true
            }
            if isDue, let sample = pc_sample_copied_from_pad(pad, buffer) { keep(Sample(adopting: sample)) }
            return .pass
        }
    }
}

extension Pad {
    /// Calls `body` once, on a streaming thread, when the next picture entering this pad (a repeater's
    /// sink pad: imagefreeze's) first leaves `repeater`, its source pad. A repeater that already repeats an
    /// older picture sends that one for up to a frame more (it takes its copy before waiting for the
    /// frame's time): whatever is switched to the repeater before `body` would show the older picture.
    public func whenNextPictureLeaves(_ repeater: Pad, _ body: @escaping @Sendable () -> Void) {
        let picture = Locked<UInt?>(nil)
        addRawBufferProbe { _, buffer in
            picture.withValue { $0 = UInt(bitPattern: pc_buffer_first_memory(buffer)) }
            return .remove
        }
        repeater.addRawBufferProbe { _, buffer in
            guard let expected = picture.value, expected == UInt(bitPattern: pc_buffer_first_memory(buffer)) else { return .pass }
            body()
            return .remove
        }
    }

    /// Drops the next buffer that reaches this pad, and only that one.
    public func dropNextBuffer() {
        let dropped = Locked(false)
        addRawBufferProbe { _, _ in dropped.withValue { done in defer { done = true }; return done } ? .remove : .drop }
    }
}

extension Element {
    /// Brings an element added to a running bin to the bin's state (and clock). False when it could not
    /// get there: a device that cannot be opened, for instance; the element has posted why on the bus.
    @discardableResult
    public func syncStateWithParent() -> Bool {
        gst_element_sync_state_with_parent(element) != 0
    }

    /// For an input-selector: the sink pad whose stream it passes on from now.
    public func select(_ pad: Pad) {
        pc_select_pad(element, pad.pad)
    }
}
