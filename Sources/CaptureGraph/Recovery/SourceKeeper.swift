import CaptureModel
import Foundation
import GStreamer
import LinuxIO
import Locking

/// Keeps one device's branch of a running recording going while the device fails, freezes or goes away,
/// and takes the device back when it returns: AVFoundation's session interruption, per input.
///
/// - Lost: an error from the source, the device leaving (`deviceLeft`), or no frame (sound) for the
///   policy's timeout. A failed or departed source is taken out of the pipeline at once (a device
///   reconnects only once every handle to it is closed); a silent one stays, in case it wakes up.
///   End-of-stream never leaves a kept source (`holdEndOfStream`), so the compositor's and mixers' pads
///   never end: the other inputs, the picture's rate and the file go on as before.
/// - While lost, a camera's place shows a `Slate`; a microphone's tracks carry the mixers' silence.
/// - Back: every second (and at once when the device is seen arriving) a new source is made from the
///   plan's factory and properties and linked where the old one was; its first frame switches the camera
///   back. While a camera's node is absent it is looked for at each tick, a quarter of a second: a
///   device that reconnects without the system saying so (vivid's) is taken back that much sooner.
///   A new source that opens but gives no frame within `retryPatience` is taken out and made again: a
///   device bound again can take a moment before it streams, and a source opened too early may wait
///   forever.
///
/// Every change of the pipeline happens on one serial queue, never on a streaming thread.
final class SourceKeeper: @unchecked Sendable {
    enum Change: Sendable {
        /// Lost at this running time: when pipcam learned of it (the error or the departure arrived, or
        /// the silence reached the timeout), which is before the slate is up.
        case lost(InterruptionReason, at: Duration)
        case back(at: Duration)
        /// The camera came back without the mode it was asked for, and is asked for the nearest.
        case modeChanged(asked: CaptureMode, given: CaptureMode)
    }

    let kept: GraphPlan.KeptSource
    private let input: DeviceInput
    private let pipeline: Pipeline
    private let timeout: Duration
    private let queue: DispatchQueue
    private var report: (@Sendable (Change) -> Void)?
    /// Called with the camera's node each time its source is made again and has opened the device, before
    /// it streams: its control settings are made again there.
    var reopened: (@Sendable (String) -> Void)?
    private var timer: DispatchSourceTimer?

    // Touched only on `queue`.
    private var source: Element?
    private var attempts = 0
    private var attemptsSinceFrame = 0
    /// The sources this keeper made last, held so that their identities are not reused: a late error from
    /// one taken out (it comes within moments) is still known as the device's.
    private let sources: Locked<[Element]>
    private static let sourcesRemembered = 4
    private var lastAttempt = ContinuousClock.now
    /// When the source now in the pipeline was made, while it has not given its first frame.
    private var attachedAt: ContinuousClock.Instant?
    private var lostReason: InterruptionReason?
    /// A network camera before its first picture: called at once, and reported lost only if that fails
    /// (a camera that answers in a moment is not an interruption).
    private var connecting = false
    /// An optional camera's "waiting" picture, until its first frame: the elements and the switch's input.
    private var placeholder: (elements: [Element], input: Pad)?
    /// The switch's input the camera's frames come in by (nil until an optional camera is first opened).
    private var cameraPad: Pad?
    /// Whether the camera's frames are made into the picture it gave first (see `askNearestMode`).
    private var isFitted = false

    // Touched from streaming threads too.
    private let lastArrival = Locked(ContinuousClock.now)
    private let awaitingReturn = Locked(false)
    private let lastPicture = Locked<Sample?>(nil)
    private let stopping = Locked(false)
    /// What a network camera sends that no decoder takes, once decodebin said (`NetworkCameraFailure`).
    let undecodable = Locked<String?>(nil)
    /// What stands in for a camera while it is lost; nil for a microphone.
    private let slate: Slate?
    /// A network camera's sound, when a microphone takes it: heard while the camera is.
    private let sound: CameraSound?

    /// Takes over the source the pipeline was built with: its end-of-stream is held from now on.
    init(_ kept: GraphPlan.KeptSource, input: DeviceInput, pipeline: Pipeline, timeout: Duration) throws {
        self.kept = kept
        self.input = input
        self.pipeline = pipeline
        self.timeout = timeout
        queue = DispatchQueue(label: "pipcam.keeper.\(kept.inputID)")
        source = pipeline[kept.source]
        sources = Locked(source.map { [$0] } ?? [])
        let selector = kept.selector.flatMap { pipeline[$0] }
        slate = selector.flatMap { selector in kept.slate.flatMap { Slate($0, in: pipeline, selector: selector, label: input.label) } }
        sound = kept.sound.flatMap { CameraSound($0, in: pipeline) }
        if let source { try watch(source) }
        if let selector {
            let first = try selector.staticPad("sink_0")
            selector.select(first)
            if kept.startsDetached {
                placeholder = (kept.placeholder.compactMap { pipeline[$0] }, first)
            } else {
                try keepPictures(at: first)
            }
        }
    }

    /// Starts watching for silence once the graph plays; `report` hears every loss and return.
    func activate(report: @escaping @Sendable (Change) -> Void) {
        queue.sync {
            self.report = report
            lastArrival.withValue { $0 = .now }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()
            self.timer = timer
            if kept.startsDetached {
                // An optional camera: in its place, a slate until it can be opened, tried at once. A network
                // camera is called at once too, and counts as lost only if that fails.
                if kept.networkCamera != nil {
                    connecting = true
                    lostReason = .unavailable("connecting")
                    awaitingReturn.withValue { $0 = true }
                } else {
                    let holders = input.device.node.map(CameraAccess.heldBy) ?? ""
                    lose(.unavailable(holders.isEmpty ? "not connected" : "in use" + holders), at: now)
                }
                attach()
            }
        }
    }

    /// Whether the message comes from this keeper's source, now or before: the plan's, or one `attach`
    /// made. Its errors are the device's, not the recording's.
    func owns(_ message: Message) -> Bool {
        sources.withValue { $0.contains { message.isFrom($0) || message.isFrom(within: $0) } }
    }

    /// The source posted an error: it is taken out, and the device counts as lost. A network camera's
    /// failure is said by what it was (`NetworkCameraFailure`).
    func sourceFailed(_ message: Message, reason: String) {
        let time = now
        queue.async { [self] in
            // An error from a source already taken out (a failed attempt, or a late message) changes nothing.
            guard let source, message.isFrom(source) || message.isFrom(within: source) else { return }
            let said = kept.networkCamera.map { NetworkCameraFailure.said(message, of: $0, text: reason, undecodable: undecodable.value) }
            lose(.failed(said ?? reason), at: time)
            takeOutSource()
        }
    }

    /// The system says the device left.
    func deviceLeft() {
        let time = now
        queue.async { [self] in
            lose(.removed, at: time)
            takeOutSource()
        }
    }

    /// The pipeline's running time: the recording's clock.
    private var now: Duration { pipeline.runningTime ?? .zero }

    /// The system says the device is back: try it now rather than at the next tick.
    func deviceArrived() {
        queue.async { [self] in if lostReason != nil { attach() } }
    }

    /// Ends the branch for the end of the recording, from downstream of the source (which may be gone).
    func endOfStream() {
        stopping.withValue { $0 = true }
        _ = try? pipeline[kept.end]?.staticPad("sink").sendEndOfStream()
    }

    /// Stops the timer; the pipeline's teardown takes the elements.
    func stop() {
        stopping.withValue { $0 = true }
        queue.sync {
            timer?.cancel()
            timer = nil
            report = nil
        }
    }

    /// The camera is asked for another mode (a throttle rung, a swap): its source stops and starts its
    /// stream, which takes a webcam a second or two and more on a loaded machine. Its silence counts
    /// from a timeout after the change, so that the change is not taken for a loss.
    func modeChanging() {
        lastArrival.withValue { $0 = .now + timeout }
    }

    // MARK: on the queue

    private func tick() {
        guard !stopping.value else { return }
        if lostReason == nil {
            let silence = ContinuousClock.now - lastArrival.value
            if silence >= timeout {
                lose(.silent(silence), at: now)
                // A stalled stream is not waited for: the camera is called again.
                if kept.networkCamera != nil { takeOutSource() }
            }
        } else if source == nil, ContinuousClock.now - lastAttempt >= retryInterval {
            attach()
        } else if let attachedAt, ContinuousClock.now - attachedAt >= retryPatience {
            lose(.silent(ContinuousClock.now - attachedAt), at: now)
            takeOutSource()
        }
    }

    /// How long a source made again may take to its first frame before it is made once more: twice the
    /// silence that counts as a loss, and never under five seconds, since a camera asked for another mode
    /// or a loaded machine takes a few seconds to start.
    private var retryPatience: Duration { max(timeout * 2, .seconds(5)) }

    /// How long after an attempt the next is made: a second for a device, a network camera's own pace.
    private var retryInterval: Duration {
        kept.networkCamera != nil ? NetworkCameraSource.retryInterval(afterAttempts: attemptsSinceFrame) : .seconds(1)
    }


    private func lose(_ reason: InterruptionReason, at time: Duration) {
        if connecting {
            connecting = false
            lostReason = nil
        }
        guard lostReason == nil, !stopping.value else { return }
        lostReason = reason
        awaitingReturn.withValue { $0 = true }
        showSlate()
        sound?.lost()
        report?(.lost(reason, at: time))
    }

    /// The first frame after a loss: from the source now in the pipeline, the camera takes its place back
    /// from the slate. A frame the source taken out was still pushing (it was in flight when the device
    /// left) brings nothing back, and the next frame is awaited again: waiting no longer, the camera
    /// would stay behind its slate to the end of the recording.
    private func frameReturned(from element: ObjectIdentity) {
        guard lostReason != nil, !stopping.value else { return }
        guard let source, source.identity == element else {
            awaitingReturn.withValue { $0 = true }
            return
        }
        attachedAt = nil
        attemptsSinceFrame = 0
        if let camera = cameraPad {
            slate?.hide(showing: camera)
            removePlaceholder()
        }
        sound?.returned()
        lostReason = nil
        if connecting { connecting = false } else { report?(.back(at: now)) }
    }

    private func showSlate() {
        // Before its first frame, a camera's place shows its placeholder (an optional camera), or the
        // compositor's background.
        guard let picture = lastPicture.value else { return }
        slate?.show(picture, lostAt: Date())
    }

    /// An optional camera's first frame: its "waiting" picture leaves the pipeline for good.
    private func removePlaceholder() {
        guard let (elements, input) = placeholder, let selector = kept.selector.flatMap({ pipeline[$0] }) else { return }
        placeholder = nil
        for element in elements { _ = try? element.setState(.null) }
        if let last = elements.last, let output = try? last.staticPad("src") { output.unlink(from: input) }
        selector.releaseRequestPad(input)
        for element in elements { pipeline.remove(element) }
    }

    /// A new source made from the plan's node, linked where the old one was and brought to the pipeline's
    /// state. A device that cannot be opened yet fails here, and the next tick tries again.
    private func attach() {
        guard source == nil, !stopping.value, let next = pipeline[kept.next] else { return }
        let previousAttempt = lastAttempt
        lastAttempt = .now
        let element: Element
        do {
            guard let made = try makeSource() else {
                lastAttempt = previousAttempt  // no node yet: looked for again at the next tick
                return
            }
            element = made
        } catch {
            return
        }
        do {
            try pipeline.add(element)
            source = element
            sources.withValue { $0 = Array(($0 + [element]).suffix(Self.sourcesRemembered)) }
            attachedAt = .now
            try watch(element)
            if cameraPad == nil, let selector = kept.selector.flatMap({ pipeline[$0] }), let frames = kept.frames.flatMap({ pipeline[$0] }) {
                let pad = try selector.requestPad("sink_%u")
                try frames.staticPad("src").link(to: pad)
                try keepPictures(at: pad)
            }
            try element.staticPad("src").link(to: try next.staticPad("sink"))
            try sound?.attach(element)
            if !element.syncStateWithParent() { takeOutSource() }
        } catch {
            takeOutSource()
        }
    }

    /// A new source from the plan's recipe, named for the attempt; nil when a camera's node is not back
    /// yet. A device's is opened (and asked for the nearest mode it offers) before it joins the pipeline.
    private func makeSource() throws -> Element? {
        switch kept.recipe {
        case .network(let camera, let frameRate):
            attempts += 1
            attemptsSinceFrame += 1
            return try NetworkCameraSource.make(camera, frameRate: frameRate, withSound: sound != nil, name: "\(kept.source.name)-\(attempts)")
        case .element(let factory, var properties):
            if case .v4l2 = input.device.source {
                // A camera plugged back while its old node is still held somewhere comes back under another
                // number: its stable link or its bus info says which node it has now.
                guard let node = input.device.currentNode else { return nil }
                properties = properties.map { $0.0 == "device" ? ("device", .string(node)) : $0 }
            }
            attempts += 1
            let element = try factory.make(name: "\(kept.source.name)-\(attempts)")
            for (property, value) in properties { try element.set(property, value) }
            do {
                try askNearestMode(of: element)
                if case .string(let node)? = properties.first(where: { $0.0 == "device" })?.1, let reopened {
                    _ = try element.setState(.ready)  // the device is open: its settings are kept while it is
                    reopened(node)
                }
            } catch {
                _ = try? element.setState(.null)
                throw error
            }
            return element
        }
    }

    /// A camera that comes back offering other modes than the one its caps filter asks for (another
    /// model on the same port, a firmware reset, an input switched meanwhile) would fail to start again
    /// every second. It is asked for the nearest mode it offers instead (`FormatChooser.nearest`), and
    /// its frames are converted, scaled and paced into the picture it gave before, so nothing after the
    /// switch (the compositor, its own track's encoder) sees a change. A camera that offers its mode
    /// again later passes through the same elements untouched.
    private func askNearestMode(of element: Element) throws {
        guard kept.selector != nil, let cameraPad, let picture = cameraPad.currentCaps,
              let filter = pipeline[kept.next], case .caps(let askedCaps) = try filter.property("caps"),
              let asked = CaptureMode(caps: askedCaps) else { return }
        _ = try element.setState(.ready)  // opens the device: what it offers now can be asked
        let offered = try element.staticPad("src").queryCaps()
        guard !offered.isEmpty, !offered.isAny, !offered.intersects(askedCaps) else { return }
        guard let nearest = FormatChooser.nearest(to: asked, among: DeviceDiscovery.formats(offered, near: asked)) else {
            return  // nothing of its kind: it fails to start, and is tried again each second
        }
        try filter.set("caps", nearest.caps())
        if !isFitted { try fit(into: picture, at: cameraPad) }
        report?(.modeChanged(asked: asked, given: nearest))
    }

    /// Puts a converter, a scaler and a pacer between the camera's frames and the switch, fixed to
    /// `picture`: once, for the rest of the recording.
    private func fit(into picture: Caps, at input: Pad) throws {
        guard let frames = kept.frames.flatMap({ pipeline[$0] }) else { return }
        let prefix = kept.next.name
        let chain = [try ElementFactory.videoconvert.make(name: "\(prefix)-fit-convert"),
                     try ElementFactory.videoscale.make(name: "\(prefix)-fit-scale"),
                     try ElementFactory.videorate.make(name: "\(prefix)-fit-rate"),
                     try ElementFactory.capsfilter.make(name: "\(prefix)-fit")]
        try chain[3].set("caps", picture)
        let output = try frames.staticPad("src")
        output.unlink(from: input)
        for element in chain { try pipeline.add(element) }
        try output.link(to: try chain[0].staticPad("sink"))
        for (from, to) in zip(chain, chain.dropFirst()) { try from.link(to) }
        try chain[3].staticPad("src").link(to: input)
        for element in chain.reversed() where !element.syncStateWithParent() {
            throw GStreamerError.stateChangeFailed(element: element.name, target: "the pipeline's state")
        }
        isFitted = true
    }

    /// Takes the source out of the pipeline: stopped (which closes the device) and removed, which unlinks it.
    private func takeOutSource() {
        guard let element = source else { return }
        source = nil
        attachedAt = nil
        if kept.selector == nil, let caps = (try? element.staticPad("src"))?.currentCaps, let format = pipeline[kept.next] {
            // A microphone comes back in the format it had (a camera's caps filter states its mode already).
            try? format.set("caps", caps)
        }
        _ = try? element.setState(.null)
        pipeline.remove(element)
    }

    /// The camera's frames arrive at `pad`: a copy a second is the picture a slate shows. The first is
    /// drawn on once, unseen, so that the slate's fonts are loaded before one is due.
    ///
    /// The switch asks the camera to renegotiate each time it turns back to it; the camera's caps filter
    /// states its mode, so nothing would change, but the camera's question on how to allocate waited behind
    /// the queues down to the compositor: on the loaded VM, 2 to 3 s without a frame, counted as a new
    /// loss, whose return asked again (a loop measured in 4 of 12 runs). The request stops here.
    private func keepPictures(at pad: Pad) throws {
        cameraPad = pad
        pad.ignoreRenegotiationRequests()
        pad.copyPictures(every: .seconds(1)) { [lastPicture, queue, slate] picture in
            let first = lastPicture.withValue { last in defer { last = picture }; return last == nil }
            if first, let slate { queue.async { slate.warm(with: picture) } }
        }
    }

    /// Holds the source's end-of-stream, and notes each frame's arrival (the first after a loss brings
    /// the camera back).
    private func watch(_ element: Element) throws {
        let pad = try element.staticPad("src")
        let identity = element.identity
        pad.holdEndOfStream()
        pad.addBufferProbe { [weak self, lastArrival, awaitingReturn] _ in
            // A frame still on its way in the old mode does not cut a mode change's grace short.
            lastArrival.withValue { $0 = max($0, .now) }
            if awaitingReturn.withValue({ waiting in defer { waiting = false }; return waiting }), let keeper = self {
                keeper.queue.async { keeper.frameReturned(from: identity) }
            }
            return .pass
        }
    }
}
