import CaptureModel
import GStreamer

/// What a plan holds for one camera or microphone: the handles the running graph, the counters, photos
/// and the source keeper use, set by the builder as it adds the input's branches.
public struct PlannedInput: Sendable {
    public let id: String
    /// A camera's mode, as chosen for this plan.
    public internal(set) var mode: CaptureMode?
    /// Where a camera's frames are watched: as captured, and as they reach the picture.
    public internal(set) var taps: GraphPlan.CameraTaps?
    /// Where stills of a camera are taken: the element whose source pad carries its captured frames.
    public internal(set) var stillSource: ElementHandle<Element>?
    /// A composed camera's sink pad on the compositor.
    public internal(set) var compositorPad: String?
    /// The device source the running graph keeps going through failures (`on-device-loss: continue`).
    public internal(set) var kept: GraphPlan.KeptSource?
    /// A microphone's meter of the sound as its device gives it, before its stages: its clipping alone.
    public internal(set) var deviceMeter: ElementHandle<Element>?
    /// Where a microphone's sound enters the graph from its device (its sink pad), before anything that
    /// may let sound go: how late the device began, and where its sound starts (`SoundGaps`).
    public internal(set) var soundSource: ElementHandle<Element>?
    /// A microphone's last elements before the file's mixers: sound that skips leaving them was lost on
    /// the way (`SoundGaps`).
    public internal(set) var soundJoins: [ElementHandle<Element>] = []
    /// The elements of the input's branches, by name: whose failure an error from one of them is.
    public internal(set) var elements: Set<String> = []

    init(id: String) { self.id = id }
}

extension GraphPlan {
    /// The input `id`'s record; changing it adds the input when it is new.
    subscript(input id: String) -> PlannedInput {
        get { inputs.first { $0.id == id } ?? PlannedInput(id: id) }
        set {
            if let index = inputs.firstIndex(where: { $0.id == id }) { inputs[index] = newValue } else { inputs.append(newValue) }
        }
    }

    /// The input whose branch holds the element named `name`; nil for an element every branch shares.
    public func input(owning name: String) -> String? {
        inputs.first { $0.elements.contains(name) }?.id
    }

    /// The mode chosen for each camera, for status lines and the cost.
    public var cameraModes: [String: CaptureMode] {
        Dictionary(uniqueKeysWithValues: inputs.compactMap { input in input.mode.map { (input.id, $0) } })
    }

    public var keptSources: [KeptSource] { inputs.compactMap(\.kept) }
    public var cameraTaps: [CameraTaps] { inputs.compactMap(\.taps) }
}
