import CaptureModel
import GStreamer
import Locking

/// A network camera's sound, taken by a microphone (`microphones: - camera: hall`): the camera's keeper
/// links each source it makes into the microphone's branch (`GraphPlan.SoundParts`), so the sound is
/// lost and back with the camera, over the one connection (an SRT camera takes one caller, and some
/// IP cameras few viewers).
///
/// The microphone's switch sends silence until the camera's sound comes, and again from the moment the
/// camera is lost: its tracks never wait on the network.
final class CameraSound: @unchecked Sendable {
    private let next: Element
    private let output: Element
    private let selector: Element
    private let silence: Pad
    private let end: Element
    /// The switch's input the camera's sound comes in by: requested when the first source is made.
    private var input: Pad?
    /// Whether the next sound to arrive turns the switch to the camera.
    private let awaitingSound = Locked(true)

    /// Nil when the pipeline lacks the plan's elements (it never does: the builder makes them together).
    init?(_ parts: GraphPlan.SoundParts, in pipeline: Pipeline) {
        guard let next = pipeline[parts.next], let output = pipeline[parts.output], let selector = pipeline[parts.selector],
              let end = pipeline[parts.end], let silence = try? selector.staticPad("sink_0") else { return nil }
        self.next = next
        self.output = output
        self.selector = selector
        self.silence = silence
        self.end = end
    }

    /// Links a new source's "sound" pad into the branch; its end-of-stream is held as its pictures' is.
    /// The switch turns to the camera at its first sound.
    func attach(_ source: Element) throws {
        let sound = try source.staticPad("sound")
        sound.holdEndOfStream()
        if input == nil {
            let pad = try selector.requestPad("sink_%u")
            try output.staticPad("src").link(to: pad)
            pad.addBufferProbe { [awaitingSound, selector] _ in
                if awaitingSound.withValue({ waiting in defer { waiting = false }; return waiting }) { selector.select(pad) }
                return .pass
            }
            input = pad
        }
        try sound.link(to: try next.staticPad("sink"))
    }

    /// The camera is lost: silence until its sound comes back.
    func lost() {
        awaitingSound.withValue { $0 = true }
        selector.select(silence)
    }

    /// Ends the microphone's branch, below the switch: the camera's sound never ends by itself.
    func endOfStream() {
        _ = try? end.staticPad("sink").sendEndOfStream()
    }
}
