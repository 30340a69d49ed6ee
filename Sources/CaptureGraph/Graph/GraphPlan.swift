import CaptureModel
import GStreamer

/// An element of a plan that code outside the builder uses, typed by what it is: the running pipeline
/// hands it back as that type (`Pipeline[handle]`), so nothing outside the builder names an element.
public struct ElementHandle<Kind: Element>: Hashable, Sendable {
    public let name: String
    init(_ name: String) { self.name = name }
}

/// The GStreamer graph a configuration compiles to, as plain data: elements with their properties and
/// the links between them. One plan has two readers: `PipelineAssembler` builds it element by element,
/// and `LaunchLine` prints the equivalent gst-launch-1.0 line, so what `describe` shows is what runs.
public struct GraphPlan: Sendable {
    public struct Node: Sendable {
        public let name: String
        public let factory: ElementFactory
        public var properties: [(String, PropertyValue)]
        /// Source pads appear while running (decodebin): links from it wait for them.
        public var hasDynamicPads = false

        public var handle: ElementHandle<Element> { ElementHandle(name) }
    }

    public struct Link: Sendable {
        public let from: String
        public let fromPad: String?
        public let to: String
        public let toPad: String?
        /// Properties of the (request) sink pad, e.g. a compositor input's position and size.
        public var padProperties: [(String, PropertyValue)] = []
        /// How much later what leaves by the link's source pad is placed (negative: earlier): a
        /// microphone's offset, where it joins a mixer. Set on the source pad, which sends its segment
        /// again with a changed offset at its next buffer (a sink pad takes one only with a new segment,
        /// which a live microphone never sends). A pad's time offset is not a property gst-launch can set
        /// (its range starts at zero), so a launch line leaves it out.
        public var timeOffset = Duration.zero

        /// The source pad's name, as the running graph has it.
        var sourcePad: String { fromPad ?? "src" }

        /// The element the link goes into.
        public var target: ElementHandle<Element> { ElementHandle(to) }
    }

    /// Where to watch a camera's frames: as captured, and as they reach the picture.
    public struct CameraTaps: Sendable {
        public let inputID: String
        public let captured: ElementHandle<Element>
        public let delivered: ElementHandle<Element>?
        public let deliveredPad: String?
        /// Frames that can be between the two at once (in queues, and one in hand after each): counted as
        /// captured and not yet as delivered, they are not dropped.
        public let framesOnTheWay: Int
        /// A network camera's delay: frames that arrive before it are of before the recording, and not
        /// counted (`DelayLines`).
        public var countedFrom = Duration.zero
    }

    /// A device's source that the running graph replaces while the recording goes on (`SourceKeeper`):
    /// taken out when the device fails or leaves, made again from its node when the device is back.
    public struct KeptSource: Sendable {
        public let inputID: String
        /// The source's name, and what a new one is made of.
        public let source: ElementHandle<Element>
        public let recipe: SourceRecipe
        /// The element the source feeds: a new source is linked to its sink pad.
        public let next: ElementHandle<Element>
        /// A camera's switch between its frames (from `frames`, into its first input unless the camera
        /// starts detached) and the slate that stands in for them.
        public let selector: ElementHandle<Element>?
        public var frames: ElementHandle<Element>?
        /// Where the recording's end-of-stream goes in (its sink pad), whether a source is there or not.
        public let end: ElementHandle<Element>
        /// An optional camera: the graph starts without its source, which the keeper opens once it plays.
        public var startsDetached = false
        /// What a detached camera's place shows until its first frame (no last picture to dim yet): the
        /// elements, in order, into the switch's `sink_0`.
        public var placeholder: [ElementHandle<Element>] = []
        /// A camera's slate (see `Slate`), in the graph from the start.
        public var slate: SlateParts?
        /// A network camera's sound, when a microphone takes it (`CameraSound`).
        public var sound: SoundParts?

        /// The network camera the source is made for, nil for a device.
        public var networkCamera: NetworkCamera? {
            if case .network(let camera, _) = recipe { return camera }
            return nil
        }
    }

    /// A microphone that takes a network camera's sound: the camera's source sends its sound into `next`,
    /// made into the session's sound by `output`, which joins the microphone's switch once the source is
    /// first made. Until the camera's first picture, and while it is lost, the switch's `sink_0` sends the
    /// `silence` source's sound; the recording's end goes in at `end`, below the switch.
    public struct SoundParts: Sendable {
        public let next: ElementHandle<Element>
        public let output: ElementHandle<Element>
        public let selector: ElementHandle<Element>
        public let silence: ElementHandle<Element>
        public let end: ElementHandle<Element>
    }

    /// What a kept source is made of, each time it is made again.
    public enum SourceRecipe: Sendable {
        /// An element of the plan: a V4L2 camera, a sound card.
        case element(ElementFactory, [(String, PropertyValue)])
        /// A network camera's source (`NetworkCameraSource`), its pictures at the camera's rate.
        case network(NetworkCamera, frameRate: Double)
    }

    /// A slate's elements: the source its picture is pushed into, the text written on it, and the repeater
    /// that sends it on at the camera's rate into the switch's `input`.
    public struct SlateParts: Sendable {
        public let source: ElementHandle<AppSource>
        public let text: ElementHandle<Element>
        public let repeater: ElementHandle<Element>
        public let input: String
    }

    public private(set) var nodes: [Node] = []
    public private(set) var links: [Link] = []
    /// Appsrc elements that replay a mapped raw clip (see `Y4MClip`), with the clip's path.
    public var mappedClips: [ElementHandle<AppSource>: String] = [:]
    /// pipewiresrc elements that read a screen shared through the desktop's portal, with the input's id:
    /// the share (its PipeWire connection and node) is known only when the session starts.
    public var screencasts: [ElementHandle<Element>: String] = [:]
    /// Elements whose source pad a sync camera's flashes or a sync microphone's beeps are put on when the
    /// graph is made (see `Pad.drawSyncFlashes`); a launch line shows them black and silent.
    public var syncSignals: [ElementHandle<Element>: SyncSignal] = [:]
    public enum SyncSignal: Sendable {
        case flash
        /// Beeps `late` after the flashes: a stand-in for a late microphone.
        case beep(late: Duration)
    }
    /// The caps filters that follow what each camera captures (its own, and its slate's rate); they
    /// change while running (see `isLive`).
    public var liveCaps: Set<String> = []
    /// The element whose source pad carries the composed picture, before encoding.
    public var compositeSource: ElementHandle<Element>?
    /// The element that writes the file: once it fails, nothing more reaches the disk.
    public var fileSink: ElementHandle<Element>?
    /// The appsink that sees the encoded picture for live photos.
    public var livePhotoSink: ElementHandle<AppSink>?
    /// Where the streams take the encoded picture and sound (`StreamPart`).
    public var streamTaps = StreamTaps()
    /// Appsinks by data output id.
    public var appSinks: [String: ElementHandle<AppSink>] = [:]
    /// One track of the file: the muxer's sink pad it enters by, its name, and whether players play it
    /// unless asked for another (the picture and the mix; not a microphone's or a camera's own track).
    public struct MuxTrack: Sendable, Equatable {
        public let pad: String
        public let title: String
        public let isDefault: Bool
    }

    /// The file's tracks in order: picture, mix, microphones, isolated cameras.
    public var muxTracks: [MuxTrack] = []
    public var muxPads: [String] { muxTracks.map(\.pad) }
    public var mux: ElementHandle<Element>?
    public var compositor: ElementHandle<Element>?
    /// How much earlier than they arrive a network camera's pictures are placed (the longest `delay:`):
    /// the other inputs' branches into the file hold theirs as long, and the picture, the mix and the
    /// file's queues wait as much longer (`DelayLines`).
    var placedEarlier = Duration.zero
    /// The queues whose "src" pad places what leaves it earlier, by how much (`Pad.placeEarlier`).
    var placedEarlierPads: [String: Duration] = [:]
    /// Every encoder, and the one of the composed picture.
    public var encoders: [ElementHandle<Element>] = []
    public var pictureEncoder: ElementHandle<Element>?
    /// The encoders of the cameras' own tracks: a recording in parts asks them for a key frame where the
    /// picture's part begins.
    public var isolatedEncoders: [ElementHandle<Element>] = []
    /// The caps filter before each camera's own encoder, with the camera's frame rate: its frames are put
    /// on that rate's grid (`Pad.putFramesOnGrid`), as the picture's are, so readers that time a track by
    /// its nominal rate never round two frames onto one time.
    public var trackGrids: [ElementHandle<Element>: Double] = [:]
    /// The queue before the picture's encoder, where pictures are dropped when encoding falls behind.
    public var pictureQueue: ElementHandle<Element>?
    /// The builder's own: the mixer and the preview's compositor, linked into as they are made.
    var mixerName: String?
    var previewCompositor: String?
    /// The preview's text overlay (when shown) and its window.
    public var previewOverlay: ElementHandle<Element>?
    public var previewSink: ElementHandle<Element>?
    public var outputSize: (width: Int, height: Int) = (0, 0)
    public var frameRate: Double = 0
    /// Said once the graph runs: `encoder: automatic` found a hardware encoder listed that did not start,
    /// and records with x264 (`HardwareEncoders`).
    package var encoderFallback: String?
    /// Each camera and microphone, with its handles, in the order the builder added them.
    public internal(set) var inputs: [PlannedInput] = []
    /// The input whose branch the builder is making: elements added meanwhile are recorded as its.
    var branchInput: String?

    public func node(_ name: String) -> Node? { nodes.first { $0.name == name } }

    @discardableResult
    mutating func add(_ name: String, _ factory: ElementFactory, _ properties: [(String, PropertyValue)] = []) -> String {
        nodes.append(Node(name: name, factory: factory, properties: properties))
        if let branchInput { self[input: branchInput].elements.insert(name) }
        return name
    }

    /// Makes an element every branch shares (a compositor, the mixer) while a branch is being made.
    mutating func shared(_ make: (inout GraphPlan) -> String) -> String {
        let owner = branchInput
        branchInput = nil
        defer { branchInput = owner }
        return make(&self)
    }

    mutating func markDynamic(_ name: String) {
        if let index = nodes.firstIndex(where: { $0.name == name }) { nodes[index].hasDynamicPads = true }
    }

    mutating func link(_ from: String, _ fromPad: String? = nil, to: String, _ toPad: String? = nil,
                       padProperties: [(String, PropertyValue)] = [], timeOffset: Duration = .zero) {
        links.append(Link(from: from, fromPad: fromPad, to: to, toPad: toPad, padProperties: padProperties, timeOffset: timeOffset))
    }

    /// Makes every leaky queue wait for room instead of dropping: nothing is live, so nothing needs to be
    /// lost, and a few pictures are enough to keep the threads apart (a second of them absorbs live bursts).
    mutating func makeQueuesWait() {
        for index in nodes.indices where nodes[index].properties.contains(where: { $0.0 == "leaky" }) {
            nodes[index].properties.removeAll { $0.0 == "leaky" || $0.0 == "max-size-buffers" }
            nodes[index].properties.append(("max-size-buffers", .uint(3)))
        }
    }

    /// Lets the file's and the taps' sinks start without their first data: held back by a network
    /// camera's delay (`DelayLines`), it would hold the recording's start as long (their preroll).
    mutating func startSinksWithoutData() {
        for index in nodes.indices where [.filesink, .appsink].contains(nodes[index].factory) {
            nodes[index].properties.removeAll { $0.0 == "async" }
            nodes[index].properties.append(("async", .bool(false)))
        }
    }

    /// Links each element to the next.
    mutating func chain(_ names: [String]) {
        for (from, to) in zip(names, names.dropFirst()) { link(from, to: to) }
    }
}

extension Fraction {
    /// 30 → 30/1, 12.5 → 25/2, 29.97 → 30000/1001.
    init(rate: Double) {
        if rate == rate.rounded() { self.init(Int32(rate), 1); return }
        if abs(rate * 2 - (rate * 2).rounded()) < 0.001 { self.init(Int32((rate * 2).rounded()), 2); return }
        self.init(Int32((rate * 1001).rounded()), 1001)
    }
}

extension GraphPlan {
    /// Whether a running element takes a new value of this property without a rebuild: connection
    /// switches, flips, and a camera's capture size (the source renegotiates, which is what lets a swap
    /// enlarge the camera that was captured small for the inset), with the fonts that follow it (the
    /// clock's, and a lost camera's slate's).
    func isLive(_ property: String, of node: Node) -> Bool {
        switch (node.factory, property) {
        case (.valve, "drop"), (.videoflip, "video-direction"), (.timeoverlay, "font-desc"), (.textoverlay, "font-desc"): return true
        case (.volume, "volume"), (.audiocheblimit, "cutoff"), (.audiodynamic, "threshold"): return true
        case (.capsfilter, "caps"): return liveCaps.contains(node.name)
        default: return false
        }
    }

    /// The plan with everything a running graph can change in place left out (live properties, pad
    /// positions, mutes): two plans with the same key differ only in live settings.
    package var structureKey: String {
        let nodeText = nodes.map { node in
            let kept = node.properties.filter { !isLive($0.0, of: node) }
            return node.factory.rawValue + " " + node.name + " " + kept.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        }
        let linkText = links.map { "\($0.from).\($0.fromPad ?? "")>\($0.to).\($0.toPad ?? "")" }
        return (nodeText + linkText).joined(separator: "\n")
    }
}

extension SessionConfiguration {
    /// The graph this configuration runs as (validating it first).
    public func graphPlan() throws -> GraphPlan { try GraphBuilder.plan(for: self) }
}

extension GraphPlan {
    /// Builds the whole graph without starting it, and lets it go: every element exists and every link holds.
    public func checkBuilds() throws { _ = try PipelineAssembler.assemble(self) }

    /// The built graph as Graphviz DOT, for `describe --dot`.
    public func writeDotGraph(to path: String) throws { try PipelineAssembler.assemble(self).writeDotGraph(to: path) }

    /// The `gst-launch-1.0` line of the same graph.
    public var launchLine: String { LaunchLine.render(self) }
}
