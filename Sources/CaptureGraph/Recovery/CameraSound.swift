import CaptureModel
import GStreamer

/// A network camera's sound, taken by a microphone (`microphones: - camera: hall`): the camera's keeper
/// links each source it makes into the microphone's branch (`GraphPlan.SoundParts`), over the one
/// connection (an SRT camera takes one caller, and some IP cameras few viewers).
///
/// The microphone's switch follows the camera's pictures, on the keeper's queue: silence until the
/// camera's first picture, and from the moment it is lost until its first picture back. A source called
/// again that sends sound but no picture stays unheard, and the microphone's tracks never wait on the
/// network.
final class CameraSound: @unchecked Sendable {
    private let next: Element
    private let output: Element
    private let selector: Element
    private let silence: Pad
    /// The switch's input the camera's sound comes in by: requested when the first source is made.
    private var input: Pad?

    /// Nil when the pipeline lacks the plan's elements (it never does: the builder makes them together).
    init?(_ parts: GraphPlan.SoundParts, in pipeline: Pipeline) {
        guard let next = pipeline[parts.next], let output = pipeline[parts.output], let selector = pipeline[parts.selector],
              let silence = try? selector.staticPad("sink_0") else { return nil }
        self.next = next
        self.output = output
        self.selector = selector
        self.silence = silence
    }

    /// Links a new source's "sound" pad into the branch; its end-of-stream is held as its pictures' is.
    func attach(_ source: Element) throws {
        let sound = try source.staticPad("sound")
        sound.holdEndOfStream()
        if input == nil {
            let pad = try selector.requestPad("sink_%u")
            try output.staticPad("src").link(to: pad)
            input = pad
        }
        try sound.link(to: try next.staticPad("sink"))
    }

    /// The camera's first picture, or its first after a loss: its sound is heard.
    func returned() {
        if let input { selector.select(input) }
    }

    /// The camera is lost: silence until it is back.
    func lost() {
        selector.select(silence)
    }
}
