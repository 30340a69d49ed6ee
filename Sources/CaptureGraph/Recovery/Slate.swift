import CaptureModel
import Foundation
import GStreamer
import Locking

/// What stands in for a lost camera: its last picture, dimmed, with "<label> lost at <time>, reconnecting…"
/// on it, repeated at the camera's rate on the pipeline's clock. The picture is dimmed and written on once;
/// imagefreeze then sends the same buffer again and again, so a slate costs almost nothing while it shows.
/// Its caps are the camera's own, so nothing downstream (the compositor, an isolated track's encoder)
/// renegotiates when it comes or goes.
final class Slate {
    private let elements: [Element]
    private let selectorPad: Pad
    private let selector: Element
    private let pipeline: Pipeline

    /// Builds the slate into `pipeline` on a new input of `selector`, running, and switches to it.
    /// Nil when the picture carries no caps to repeat it with.
    convenience init?(picture: Sample, label: String, lostAt: Date, selector: Element, pipeline: Pipeline, prefix: String) throws {
        guard let caps = picture.caps else { return nil }
        let source = try AppSource(name: "\(prefix)-slate-src", caps: caps)
        let dim = try ElementFactory.videobalance.make(name: "\(prefix)-slate-dim", properties: ["brightness": -0.2, "saturation": 0.4])
        let text = try Self.text("\(label) lost at \(Self.clockTime(lostAt))\nreconnecting…", height: picture.videoInfo?.height ?? 480, prefix: prefix)
        let freeze = try ElementFactory.imagefreeze.make(name: "\(prefix)-slate-freeze", properties: ["is-live": true])
        let fixed = try ElementFactory.capsfilter.make(name: "\(prefix)-slate-caps", properties: ["caps": caps])
        try self.init([source, dim, text, freeze, fixed], selector: selector, pipeline: pipeline)
        try source.push(picture)
    }

    /// The slate a graph was built with (an optional camera's placeholder), already in `pipeline`.
    init(existing elements: [Element], selector: Element, pad: Pad, pipeline: Pipeline) {
        self.elements = elements
        self.selector = selector
        self.pipeline = pipeline
        selectorPad = pad
    }

    /// Adds `elements` to `pipeline` as a chain into a new input of `selector`, running, and switches to it.
    private init(_ elements: [Element], selector: Element, pipeline: Pipeline) throws {
        self.elements = elements
        self.selector = selector
        self.pipeline = pipeline
        try pipeline.addChain(elements)
        selectorPad = try selector.requestPad("sink_%u")
        try elements.last!.staticPad("src").link(to: selectorPad)
        for element in elements.reversed() { element.syncStateWithParent() }
        selector.select(selectorPad)
    }

    private static func text(_ text: String, height: Int, prefix: String) throws -> Element {
        let element = try ElementFactory.textoverlay.make(name: "\(prefix)-slate-text")
        for (property, value) in textProperties(text, height: height) { try element.set(property, value) }
        return element
    }

    /// A slate's text, centred, a fourteenth of the picture's height.
    static func textProperties(_ text: String, height: Int) -> [(String, PropertyValue)] {
        [("text", .string(DrawnText.markup(text))), ("valignment", .string("center")), ("halignment", .string("center")),
         ("line-alignment", .string("center")), ("font-desc", .string("Sans \(max(6, height / 14))px")), ("auto-resize", .bool(false)),
         ("wrap-mode", .string("wordchar"))]
    }

    /// Loads what a slate needs before it is needed: its elements' plugins, and the fonts (a line of text
    /// drawn once, off screen). Measured in the emulated VM: a first slate took 1.6 s to put up without.
    static func prepare() {
        prepared.withValue { loaded in
            guard !loaded else { return }
            loaded = true
            for factory in [ElementFactory.videobalance, .imagefreeze, .appsrc] { _ = try? factory.make() }
            var plan = GraphPlan()
            plan.chain([plan.add("fonts-src", .videotestsrc, [("num-buffers", .int(1))]),
                        plan.add("fonts-caps", .capsfilter, [("caps", .caps(GraphCaps.size(width: 64, height: 48)))]),
                        plan.add("fonts-text", .textoverlay, [("text", .string("pipcam"))]),
                        plan.add("fonts-sink", .fakesink, [("sync", .bool(false))])])
            guard let pipeline = try? PipelineAssembler.assemble(plan, name: "fonts") else { return }
            // Paused is reached once the sink holds the first picture, drawn on by then.
            _ = try? pipeline.setState(.paused)
            _ = try? pipeline.waitForState(timeout: .seconds(10))
            _ = try? pipeline.setState(.null)
        }
    }
    private static let prepared = Locked(false)

    /// The wall-clock time of the loss, as a person would note it.
    private static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }

    /// Switches `selector` back to `pad` (the camera's) and takes the slate out of the pipeline.
    func remove(showing pad: Pad) {
        selector.select(pad)
        for element in elements { _ = try? element.setState(.null) }
        if let last = elements.last, let source = try? last.staticPad("src") { source.unlink(from: selectorPad) }
        selector.releaseRequestPad(selectorPad)
        for element in elements { pipeline.remove(element) }
    }
}
