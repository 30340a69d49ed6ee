import CaptureModel
import Foundation
import GStreamer
import Locking

/// A built pipeline together with its plan, and the live handles a session needs while it runs:
/// frame counters, the recording limit, and the pads and elements that take changes without a rebuild.
package final class RunningGraph: @unchecked Sendable {
    package private(set) var plan: GraphPlan
    /// The configuration the graph was built from: which device each input is, for error messages.
    let configuration: SessionConfiguration
    let pipeline: Pipeline
    /// Every frame count, and the totals made from them.
    package let counters: GraphCounters
    /// The file, or its parts.
    package let writer: FileWriter
    /// The picture's start and pace.
    private let pacing: PicturePacing
    /// The data outputs' samples and the live photos' ring.
    private let deliveries: DataDeliveries
    /// The streams, each in a pipeline of its own fed from the program (nil without streams).
    let streams: StreamWriter?
    /// The first error the pipeline posted.
    package let firstError = Locked<CaptureError?>(nil)
    /// Whether the stop is to end at once (`cutShort`).
    let cutShortAsked = Locked(false)
    /// Whether the graph reached PLAYING (failures before that are the start's to report), and stopped.
    package let started = Locked(false), stopped = Locked(false)
    private let lock = NSLock()
    private var busSubscription: BusSubscription?
    private var pressureWatch: Task<Void, Never>?
    private var cameraWatch: CameraWatch?
    /// The device sources kept going through a loss, one per kept input (see `SourceKeeper`).
    private(set) var keepers: [SourceKeeper] = []
    /// Every stretch without a device so far, in order.
    package let interruptions = Locked<[Interruption]>([])
    /// Each microphone's meter as last read, by input.
    let soundLevels = Locked<[String: SoundLevel]>([:])
    /// What the meters say needs looking at (clipping, silence).
    let soundWatch = Locked(SoundWatch())
    /// The markers set and the pauses taken.
    package let chapters: ChapterKeeper
    /// Told when a kept camera is opened again (its input and node): its controls are made there again.
    package let cameraReopened = Locked<(@Sendable (_ inputID: String, _ node: String) -> Void)?>(nil)

    /// `screens` holds the shares of the screens the plan reads through the desktop's portal.
    package init(plan: GraphPlan, configuration: SessionConfiguration, screens: ScreenShares? = nil) throws {
        self.plan = plan
        self.configuration = configuration
        pipeline = try PipelineAssembler.assemble(plan)
        try SourceFeeds.connect(plan, in: pipeline, screens: screens)
        let (started, stopped) = (started, stopped)
        counters = try GraphCounters(plan: plan, pipeline: pipeline) { started.value && !stopped.value }
        writer = try FileWriter(plan: plan, configuration: configuration, pipeline: pipeline, counters: counters)
        pacing = try PicturePacing(plan: plan, configuration: configuration, pipeline: pipeline, skipped: counters.skipped, late: counters.late)
        deliveries = DataDeliveries(plan: plan, configuration: configuration, pipeline: pipeline)
        streams = configuration.streams.isEmpty ? nil : try StreamWriter(plan: plan, configuration: configuration, pipeline: pipeline)
        chapters = ChapterKeeper(plan: plan, pipeline: pipeline, writer: writer, streams: streams)
        if let preview = configuration.previewOutput { try watchKeys(of: preview) }
        keepers = try plan.keptSources.compactMap { kept in
            guard let input = configuration.input(kept.inputID) else { return nil }
            let keeper = try SourceKeeper(kept, input: input, pipeline: pipeline, timeout: configuration.deviceLoss.silenceTimeout)
            keeper.reopened = { [cameraReopened] node in cameraReopened.value?(input.id, node) }
            return keeper
        }
    }

    /// Bytes of a recording in parts written so far (deleted parts included); nil for one file, whose
    /// size says it.
    package var partsBytesWritten: Int64? { writer.parts?.bytesWritten }

    /// The last seconds of the encoded picture, when the photo output takes live photos.
    var livePhotoRing: LivePhotoRing? { deliveries.livePhotoRing }

    /// Keeps the session's bus subscription and camera watch for as long as this graph runs.
    func attach(subscription: BusSubscription, cameraWatch watch: CameraWatch?) {
        lock.lock()
        busSubscription = subscription
        cameraWatch = watch
        lock.unlock()
    }

    /// Keeps the pressure sampler for as long as this graph runs.
    package func attach(pressureWatch watch: Task<Void, Never>) {
        lock.withLock { pressureWatch = watch }
    }

    /// Lets go of them once the graph has stopped.
    func detach() {
        lock.lock()
        let subscription = busSubscription, watch = cameraWatch, pressure = pressureWatch
        busSubscription = nil
        cameraWatch = nil
        pressureWatch = nil
        lock.unlock()
        pressure?.cancel()
        subscription?.cancel()
        writer.end()
        watch?.stop()
        for keeper in keepers { keeper.stop() }
        // Ended already when the graph finished; after a start that failed, no stream goes on trying.
        if let streams { Task { await streams.finish() } }
    }

    /// Live numbers for a status line: elapsed time, frames per camera, dropped, file size, who is away.
    package func liveStatus() -> LiveStatus {
        let size = partsBytesWritten ?? writer.path.flatMap { ReadableFile.size(at: $0) }
        var status = LiveStatus(elapsed: elapsed, frames: counters.cameraFrames.map { ($0.inputID, $0.frames) },
                                dropped: counters.droppedTotal, fileSize: size)
        status.away = away
        status.soundLost = counters.soundLost
        status.streams = streams?.status ?? []
        status.soundLevels = soundLevels.value
        status.soundAlerts = soundWatch.value.states(at: status.elapsed)
        chapters.fill(&status)
        return status
    }

    /// Starts or stops a stream while recording (nil: the other way round); whether it is on now. Not
    /// started while paused (its encoders are behind the gate).
    package func turnStream(_ name: String, on: Bool?) throws -> Bool {
        guard let streams else { throw CaptureError.streamOutput(name: name, .malformed("the recording has no streams")) }
        if on != false, chapters.isPaused(at: elapsed) { throw CaptureError.streamOutput(name: name, .malformed("the recording is paused: resume it first")) }
        return try streams.turn(name, on: on)
    }

    /// What the file holds once the graph has stopped (no file's path when none was written).
    package func summary(problem: String?) -> RecordingSummary {
        stopped.withValue { $0 = true }
        let path = writer.path
        let cameras = counters.cameraFrames.map {
            RecordingSummary.Camera(inputID: $0.inputID, mode: plan.cameraModes[$0.inputID]?.description ?? "", frames: $0.frames, dropped: $0.dropped)
        }
        let size = writer.parts?.keptBytes ?? path.flatMap(ReadableFile.size)
        let frameTime = Duration.seconds(1) / max(1, Int(plan.frameRate.rounded()))
        let end = [counters.written.lastTime.map { $0 + frameTime }, counters.soundWrittenEnd.value].compactMap { $0 }.max()
        var summary = RecordingSummary(path: path, duration: end ?? .zero, cameras: cameras,
                                       droppedPictures: counters.droppedPictures, fileSize: size, problem: problem)
        summary.interruptions = interruptions.value
        summary.soundLost = counters.soundLost
        summary.streams = streams?.summaries ?? []
        chapters.fill(&summary, end: elapsed)
        if let parts = writer.parts {
            summary.parts = parts.kept
            summary.deletedParts = parts.deletedCount
        }
        summary.pictures = counters.written.value
        if let repaired = writer.repaired.value {
            summary.pictures = repaired.pictures
            summary.duration = repaired.duration
        }
        summary.pictureMode = "\(plan.outputSize.width)x\(plan.outputSize.height) @ \(VideoFormat.rateText(plan.frameRate)) fps"
        return summary
    }

    /// Counts the pictures that reach the file and, with a `limit`, cuts every track there (`FileWriter`).
    package func watchFile(limit: Duration?, reached: @escaping @Sendable () -> Void) throws {
        try writer.watch(limit: limit, reached: reached)
    }

    /// Limits the pictures that reach the encoder to `rate` per second; nil lifts the limit.
    package func limitPictureRate(_ rate: Double?) {
        pacing.limit(to: rate)
    }

    /// Ends every source branch from just downstream of the source (`SourceEnds`).
    func endAllSourcesFromDownstream() {
        pacing.finish()
        keepHeldPictures()
        SourceEnds.send(plan: plan, pipeline: pipeline, keepers: keepers)
    }

    /// With a network camera's delay, the inputs' branches into the file hold seconds of pictures
    /// (`DelayLines`), which reach the picture at once when the recording ends: the encoder's queue then
    /// keeps every one rather than drop what it cannot take at a live pace (59 of a 2 s recording's 60).
    private func keepHeldPictures() {
        guard plan.placedEarlier > .zero, let queue = plan.pictureQueue.flatMap({ pipeline[$0] }) else { return }
        try? queue.set("leaky", fromString: "no")
    }

    // MARK: changes that need no rebuild

    /// Moves the running graph to `next`, a plan with the same structure: every live property and pad
    /// property (compositor positions, mixer mutes) that differs is set on the running element.
    package func apply(_ next: GraphPlan) throws {
        for node in next.nodes {
            let old = plan.node(node.name)
            for (property, value) in node.properties where next.isLive(property, of: node) {
                guard old?.properties.first(where: { $0.0 == property })?.1 != value,
                      let element = pipeline[node.handle] else { continue }
                try element.set(property, value)
                if property == "caps" { keepers.first { $0.kept.next.name == node.name }?.modeChanging() }
            }
        }
        for link in next.links where !link.padProperties.isEmpty {
            guard let padName = link.toPad, let element = pipeline[link.target] else { continue }
            let pad = try element.staticPad(padName)
            for (property, value) in link.padProperties { try pad.set(property, value) }
        }
        let offsets = Dictionary(plan.links.map { ("\($0.from).\($0.sourcePad)", $0.timeOffset) }) { first, _ in first }
        for link in next.links where link.timeOffset != offsets["\(link.from).\(link.sourcePad)", default: .zero] {
            try pipeline[ElementHandle<Element>(link.from)]?.staticPad(link.sourcePad).timeOffset = link.timeOffset
        }
        plan = next
    }
}
