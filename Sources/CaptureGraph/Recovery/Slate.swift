import CaptureModel
import Foundation
import GStreamer
import Locking

/// What stands in for a lost camera: its last picture, dimmed, with "<label> lost at <time>, reconnecting…"
/// on it, repeated at the camera's rate on the pipeline's clock. The picture is dimmed and written on once;
/// imagefreeze then sends the same buffer again and again, so a slate costs almost nothing while it shows.
/// Its caps are the camera's own, so nothing downstream (the compositor, an isolated track's encoder)
/// renegotiates when it comes or goes.
///
/// Its elements are in the graph from the start (`GraphBuilder`: appsrc → videobalance → textoverlay →
/// imagefreeze into the camera's switch), and the camera's first picture is drawn on once, unseen, so
/// the fonts are loaded by then: a slate goes up by setting a text and pushing a picture, with nothing
/// made and no element's state changed while it is due. Measured in the emulated VM, making and starting
/// the elements at the loss took 0.5 to 1.4 s.
final class Slate: @unchecked Sendable {
    private let source: AppSource
    private let text: Element
    private let repeaterInput: Pad
    private let repeaterOutput: Pad
    private let selector: Element
    private let input: Pad
    private let label: String
    /// Which `show` the switch waits for, if any: a camera back before its slate left the repeater keeps
    /// its place.
    private let wanted = Locked<Int?>(nil)
    private var shown = 0

    /// Nil when the pipeline lacks the plan's slate (it never does: the builder makes one per kept camera).
    init?(_ parts: GraphPlan.SlateParts, in pipeline: Pipeline, selector: Element, label: String) {
        guard let source = pipeline[parts.source], let text = pipeline[parts.text], let repeater = pipeline[parts.repeater],
              let repeaterInput = try? repeater.staticPad("sink"), let repeaterOutput = try? repeater.staticPad("src"),
              let input = try? selector.staticPad(parts.input) else { return nil }
        self.source = source
        self.text = text
        self.repeaterInput = repeaterInput
        self.repeaterOutput = repeaterOutput
        self.selector = selector
        self.input = input
        self.label = label
    }

    /// Draws a slate on `picture` once, unseen (it goes no further than the repeater): the elements
    /// negotiate and the fonts load now rather than when the slate is due.
    func warm(with picture: Sample) {
        try? text.set("text", Self.markup(label: label, lostAt: Date()))
        repeaterInput.dropNextBuffer()
        try? source.push(picture.withInterlaceModeStated)
    }

    /// Puts `picture` up, dimmed and written on, in the camera's place: the switch turns to the slate as
    /// the picture leaves the repeater.
    func show(_ picture: Sample, lostAt: Date) {
        shown += 1
        let show = shown
        wanted.withValue { $0 = show }
        try? text.set("text", Self.markup(label: label, lostAt: lostAt))
        repeaterInput.whenNextPictureLeaves(repeaterOutput) { [wanted, selector, input] in
            wanted.withValue { if $0 == show { selector.select(input) } }
        }
        // A PipeWire camera's caps leave interlace-mode unsaid, and the compositor has settled on it.
        try? source.push(picture.withInterlaceModeStated)
    }

    /// Gives the camera (its input of the switch) its place back.
    func hide(showing camera: Pad) {
        wanted.withValue { wanted in
            wanted = nil
            selector.select(camera)
        }
    }

    private static func markup(label: String, lostAt: Date) -> String {
        DrawnText.markup("\(label) lost at \(clockTime(lostAt))\nreconnecting…")
    }

    /// A slate's text, centred, a fourteenth of the picture's height.
    static func textProperties(_ text: String, height: Int) -> [(String, PropertyValue)] {
        [("text", .string(DrawnText.markup(text))), ("valignment", .string("center")), ("halignment", .string("center")),
         ("line-alignment", .string("center")), ("font-desc", .string("Sans \(max(6, height / 14))px")), ("auto-resize", .bool(false)),
         ("wrap-mode", .string("wordchar"))]
    }

    /// The wall-clock time of the loss, as a person would note it. Not DateFormatter: its first use loads
    /// ICU's data, a second in the emulated VM, while the slate is due.
    private static func clockTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}
