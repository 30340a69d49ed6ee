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
    private(set) var captured: [String: FrameCounter] = [:]
    private(set) var delivered: [String: FrameCounter] = [:]
    /// Timestamps of the composed picture as it enters the file.
    let written = FrameCounter()
    /// Where a timed recording cuts every track (`watchFile`): a camera's frames from there on are not
    /// the file's, so the summary does not count them.
    private let fileLimit = Locked<Duration?>(nil)
    /// The first error the pipeline posted.
    package let firstError = Locked<CaptureError?>(nil)
    /// The file while it is written: synced every second, locked against a repair (see `FileInProgress`).
    let fileInProgress = Locked<FileInProgress?>(nil)
    /// A recording in parts: its files (see `RecordingParts`); nil for one file.
    let parts: RecordingParts?
    /// What the file keeps when it had to be ended as a crashed one (a full disk): the summary's figures.
    let repairedFile = Locked<MatroskaRepair.Result?>(nil)
    /// Whether the stop is to end at once (`cutShort`).
    let cutShortAsked = Locked(false)
    /// Whether the file's writer failed (a full disk): the end of the streams can no longer reach it.
    let fileFailed = Locked(false)
    /// Whether the graph reached PLAYING (failures before that are the start's to report), and stopped.
    package let started = Locked(false), stopped = Locked(false)
    /// Composed pictures before and after the queue that drops them when encoding falls behind.
    let composed = FrameCounter(), encoded = FrameCounter()
    /// Pictures skipped on purpose under a throttle rung (not drops: the rung lowered the rate).
    package let skipped = FrameCounter()
    /// The highest dropped total reported so far (see `droppedTotal`).
    private let droppedHighest = Locked(0)
    private var pictureRate: Locked<PictureRateLimiter>?
    /// The last seconds of the encoded picture, when the photo output takes live photos.
    let livePhotoRing: LivePhotoRing?
    private var subscriptions: [AppSinkSubscription] = []
    private let lock = NSLock()
    private var busSubscription: BusSubscription?
    private var pressureWatch: Task<Void, Never>?
    private var cameraWatch: CameraWatch?
    /// The device sources kept going through a loss, one per kept input (see `SourceKeeper`).
    private(set) var keepers: [SourceKeeper] = []
    /// Every stretch without a device so far, in order.
    package let interruptions = Locked<[Interruption]>([])
    /// Each camera's control settings as made (a `locked` value as it was read), by input id: made again
    /// when the camera comes back.
    let keptControls = Locked<[String: [ControlSettings.Step]]>([:])
    /// The controls the second camera follows the first in, changed live; and the timer that reads them.
    let matchedControls = Locked<[String]>([])
    let matcher = Locked<RepeatingTimer?>(nil)

    /// `screens` holds the shares of the screens the plan reads through the desktop's portal.
    package init(plan: GraphPlan, configuration: SessionConfiguration, screens: ScreenShares? = nil) throws {
        self.plan = plan
        self.configuration = configuration
        pipeline = try PipelineAssembler.assemble(plan)
        for (handle, inputID) in plan.screencasts {
            guard let share = screens?.grant(for: inputID), let source = pipeline[handle] else { continue }
            // pipewiresrc takes a copy of the descriptor: the share keeps its own until it ends.
            try source.set("fd", Int32(share.fd))
            try source.set("path", String(share.node))
        }
        for (handle, signal) in plan.syncSignals {
            guard let pad = try pipeline[handle]?.staticPad("src") else { continue }
            switch signal {
            case .flash: pad.drawSyncFlashes()
            case .beep: pad.soundSyncBeeps()
            }
        }
        for (handle, path) in plan.mappedClips {
            guard let source = pipeline[handle] else { continue }
            source.feed(try Y4MClip(path: path).feed)
        }
        parts = try Self.writeParts(of: plan, configuration: configuration, in: pipeline)
        let ring = plan.livePhotoSink.map { _ in LivePhotoRing() }
        livePhotoRing = ring
        for tap in plan.cameraTaps {
            let capturedCounter = FrameCounter()
            try pipeline[tap.captured]?.staticPad("sink").addBufferProbe { [fileLimit] time in
                if !Self.isPast(time, fileLimit.value) { capturedCounter.bump(time) }
                return .pass
            }
            captured[tap.inputID] = capturedCounter
            if let element = tap.delivered, let padName = tap.deliveredPad {
                let deliveredCounter = FrameCounter()
                try pipeline[element]?.staticPad(padName).addBufferProbe { [fileLimit] time in
                    if !Self.isPast(time, fileLimit.value) { deliveredCounter.bump(time) }
                    return .pass
                }
                delivered[tap.inputID] = deliveredCounter
            }
        }
        if let caps = plan.compositeSource.flatMap({ pipeline[$0] }) {
            // Under a throttle rung, pictures beyond its rate are skipped before the encoder: the file keeps
            // its declared rate and every picture its timestamp, so the change needs no renegotiation.
            // The compositor is asked not to compose the pictures that will be skipped, and the request
            // stops there: the cameras' own filters would act on it too and drop frames it still needs.
            let limiter = Locked(PictureRateLimiter(configuredRate: plan.frameRate))
            pictureRate = limiter
            if let compositor = plan.compositor.flatMap({ pipeline[$0] }) {
                // The picture starts once every camera has a frame in it (see `PictureStartGate`). A fast
                // replay's compositor waits for every clip by itself. An optional camera that starts without
                // its source is not waited for: its "waiting" picture's first text loads the fonts (0.3 to
                // 0.6 s measured in the emulated VM), and the recording would begin that much late.
                let waiting = Set(plan.keptSources.filter(\.startsDetached).map(\.inputID))
                let awaited = configuration.replay == .fast ? [:] : plan.compositorPads.filter { !waiting.contains($0.key) }
                let start = Locked(PictureStartGate(cameras: awaited.count, patience: configuration.deviceLoss.silenceTimeout))
                var inputs: [Pad] = []
                for (input, name) in plan.compositorPads {
                    let pad = try compositor.staticPad(name)
                    pad.stopUpstreamQualityOfService()
                    // The compositor shows, in each picture, the camera frame that begins within it: a camera
                    // whose frames begin just after the picture's would be shown up to a frame early, and the
                    // picture's move onto the grid below adds up to half a frame more, ahead of the sound.
                    // Each camera frame put on the grid first lands in the picture nearest to it. A fast
                    // replay's clips have no clock to keep to: its pictures start on the grid already.
                    if configuration.replay != .fast { pad.alignToFrameGrid(rate: Fraction(rate: plan.frameRate)) }
                    if awaited[input] != nil { inputs.append(pad) }
                }
                try compositor.staticPad("src").addBufferProbe { [inputs] time in
                    guard let time else { return .pass }
                    let admitted = start.withValue { $0.admits(pictureAt: time, everyCameraShown: inputs.allSatisfy(\.hasFrameInLastPicture)) }
                    return admitted ? .remove : .drop
                }
            }
            let upstream = try caps.staticPad("sink")
            try caps.staticPad("src").alignToFrameGrid(rate: Fraction(rate: plan.frameRate))
            try caps.staticPad("src").addBufferProbe { [skipped] time in
                guard let time else { return .pass }
                let decision = limiter.withValue { $0.decide(time) }
                for _ in 0..<decision.missing { skipped.bump(nil) }
                if let until = decision.skipBefore { upstream.requestNoPicturesBefore(until, now: time) }
                if decision.keep { return .pass }
                skipped.bump(time)
                return .drop
            }
        }
        if configuration.replay != .fast {
            for (handle, rate) in plan.trackGrids { try pipeline[handle]?.staticPad("src").putFramesOnGrid(rate: Fraction(rate: rate)) }
        }
        if let queue = plan.pictureQueue.flatMap({ pipeline[$0] }) {
            try queue.staticPad("sink").addBufferProbe { [composed] time in composed.bump(time); return .pass }
            try queue.staticPad("sink").freeBackloggedFrames(beyond: GraphBuilder.steadyPictureBacklog)
            try queue.staticPad("src").addBufferProbe { [encoded] time in encoded.bump(time); return .pass }
        }
        if let ring, let sink = plan.livePhotoSink.flatMap({ pipeline[$0] }) {
            subscriptions.append(sink.onSample(ring.add, ended: ring.finish))
        }
        for output in configuration.videoDataOutputs {
            deliver(output.id, to: output.delivery, discardsLate: output.alwaysDiscardsLateVideoFrames, configuration: configuration) {
                VideoDataFrame(sample: $0, cameraID: $1, sequenceNumber: $2)
            }
        }
        for output in configuration.audioDataOutputs {
            deliver(output.id, to: output.delivery, discardsLate: output.alwaysDiscardsLateBuffers, configuration: configuration) {
                AudioDataBuffer(sample: $0, microphoneID: $1, sequenceNumber: $2)
            }
        }
        if let preview = configuration.previewOutput { try watchKeys(of: preview) }
        keepers = try plan.keptSources.compactMap { kept in
            guard let input = configuration.input(kept.inputID) else { return nil }
            let keeper = try SourceKeeper(kept, input: input, pipeline: pipeline, timeout: configuration.deviceLoss.silenceTimeout)
            keeper.reopened = { [weak self] node in self?.remakeControls(of: input.id, node: node) }
            return keeper
        }
    }

    /// Bytes of a recording in parts written so far (deleted parts included); nil for one file, whose
    /// size says it.
    package var partsBytesWritten: Int64? { parts?.bytesWritten }

    /// A recording in parts: each part named as it begins, and the cameras' own tracks asked for a key
    /// frame where the picture's part begins, so that every track of a part starts with one.
    private static func writeParts(of plan: GraphPlan, configuration: SessionConfiguration, in pipeline: Pipeline) throws -> RecordingParts? {
        guard let movie = configuration.movieFile, movie.writesFile, let segmenting = movie.segmenting,
              let writer = plan.mux.flatMap({ pipeline[$0] }) else { return nil }
        let parts = RecordingParts(firstPath: movie.path, segmenting: segmenting)
        writer.nameParts { parts.path(forPart: $0) }
        if let picture = plan.pictureEncoder.flatMap({ pipeline[$0] }) {
            let targets = try plan.isolatedEncoders.compactMap { pipeline[$0] }.map { try $0.staticPad("src") }
            try picture.staticPad("src").forwardKeyFrameRequests(to: targets, rate: Fraction(rate: plan.frameRate))
        }
        return parts
    }

    private func appSink(for outputID: String) -> AppSink? {
        plan.appSinks[outputID].flatMap { pipeline[$0] }
    }

    /// Hands a data output's samples to its delivery, each numbered as it arrives (so a gap is a discarded
    /// one), made into what the output gives by `make` from the sample, the device id and the number.
    private func deliver<Item>(_ outputID: String, to delivery: DataDelivery<Item>, discardsLate: Bool, configuration: SessionConfiguration,
                               make: @escaping @Sendable (Sample, String, Int) -> Item?) {
        guard let sink = appSink(for: outputID), let deviceID = configuration.deviceID(feeding: outputID) else { return }
        delivery.configure(discardsLate: discardsLate)
        subscriptions.append(sink.onSample { sample in
            if let item = make(sample, deviceID, delivery.nextSequenceNumber()) { delivery.offer(item) }
        })
    }

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
        matcher.withValue { $0?.cancel(); $0 = nil }
        fileInProgress.withValue { file in
            file?.end()
            file = nil
        }
        parts?.stop()
        watch?.stop()
        for keeper in keepers { keeper.stop() }
    }

    /// Frames each camera delivered, and how many of them never reached the picture. While running, the
    /// frames still on their way are not counted as dropped (so a count may fall short, never over).
    package var cameraFrames: [(inputID: String, frames: Int, dropped: Int)] {
        let running = started.value && !stopped.value
        return plan.cameraTaps.map { tap in
            let frames = captured[tap.inputID]?.value ?? 0
            let reached = delivered[tap.inputID]?.value ?? frames
            return (tap.inputID, frames, max(0, frames - reached - (running ? tap.framesOnTheWay : 0)))
        }
    }

    /// Pictures and camera frames lost so far, as a total that never goes down: it is worked out from
    /// counters read one after the other while frames move, so a reading can come out a little short of
    /// the one before; a total users see (the status line, the events file) keeps the highest so far.
    package var droppedTotal: Int {
        let now = cameraFrames.reduce(droppedPictures) { $0 + $1.dropped }
        return droppedHighest.withValue { highest in
            highest = max(highest, now)
            return highest
        }
    }

    /// What the file holds once the graph has stopped.
    package func summary(path: String?, problem: String?) -> RecordingSummary {
        stopped.withValue { $0 = true }
        let cameras = cameraFrames.map {
            RecordingSummary.Camera(inputID: $0.inputID, mode: plan.cameraModes[$0.inputID]?.description ?? "", frames: $0.frames, dropped: $0.dropped)
        }
        let size = parts?.keptBytes ?? path.flatMap(ReadableFile.size)
        let frameTime = Duration.seconds(1) / max(1, Int(plan.frameRate.rounded()))
        var summary = RecordingSummary(path: path, duration: written.lastTime.map { $0 + frameTime } ?? .zero, cameras: cameras,
                                       droppedPictures: droppedPictures, fileSize: size, problem: problem)
        summary.interruptions = interruptions.value
        if let parts {
            summary.parts = parts.kept
            summary.deletedParts = parts.deletedCount
        }
        summary.pictures = written.value
        if let repaired = repairedFile.value {
            summary.pictures = repaired.pictures
            summary.duration = repaired.duration
        }
        summary.pictureMode = "\(plan.outputSize.width)x\(plan.outputSize.height) @ \(VideoFormat.rateText(plan.frameRate)) fps"
        return summary
    }

    /// Counts the pictures that reach the file. With a `limit`, also cuts every track at it (buffers at or
    /// past it are dropped before the muxer) and calls `reached` once the picture gets there, so a timed
    /// recording is exact to the frame.
    ///
    /// Buffers past the limit are also dropped before every encoder: a machine that cannot encode in real
    /// time has a backlog queued there, and encoding what the file will not keep would only delay the stop.
    package func watchFile(limit: Duration?, reached: @escaping @Sendable () -> Void) throws {
        guard let mux = plan.mux.flatMap({ pipeline[$0] }) else { return }
        fileLimit.withValue { $0 = limit }
        if let limit {
            let fired = Locked(false)
            for encoder in plan.encoders {
                let isPicture = encoder == plan.pictureEncoder
                try pipeline[encoder]?.staticPad("sink").addBufferProbe { time in
                    guard let time, time >= limit else { return .pass }
                    if isPicture && fired.withValue({ done in defer { done = true }; return !done }) { reached() }
                    return .drop
                }
            }
        }
        for (index, track) in plan.muxTracks.enumerated() {
            let isPicture = index == 0
            let pad = try mux.staticPad(track.pad)
            let title = track.title.trimmingCharacters(in: .whitespaces)
            if !title.isEmpty { pad.peer?.announceTitle(title + (track.isDefault ? "" : MatroskaFinish.notDefaultMark)) }
            pad.addBufferProbe { [written] time in
                guard let time else { return .pass }
                if let limit, time >= limit { return .drop }
                if isPicture { written.bump(time) }
                return .pass
            }
        }
    }

    /// Whether a buffer's time is at or past the recording's limit: not the file's.
    private static func isPast(_ time: Duration?, _ limit: Duration?) -> Bool {
        guard let time, let limit else { return false }
        return time >= limit
    }

    /// Limits the pictures that reach the encoder to `rate` per second; nil lifts the limit.
    package func limitPictureRate(_ rate: Double?) {
        pictureRate?.withValue { $0.rate = rate }
    }

    /// How full the queue before the picture's encoder is (0…1): near full, encoding is falling behind.
    package var encoderQueueFill: Double? {
        guard let queue = pictureQueueLevel, queue.limit > 0 else { return nil }
        return Double(queue.level) / Double(queue.limit)
    }

    /// Pictures waiting in the queue before the picture's encoder, and how many it holds.
    private var pictureQueueLevel: (level: Int, limit: Int)? {
        guard let queue = plan.pictureQueue.flatMap({ pipeline[$0] }),
              case .uint(let level)? = try? queue.property("current-level-buffers"),
              case .uint(let limit)? = try? queue.property("max-size-buffers") else { return nil }
        return (Int(level), Int(limit))
    }

    /// Frames offered to the picture and lost on the way (by cameras' queues, and before encoding).
    package var pressureCounts: PressureMonitor.FrameCounts {
        PressureMonitor.FrameCounts(delivered: max(0, encoded.value), dropped: droppedTotal)
    }

    /// Pictures dropped before encoding so far. Those still waiting in the queue are not: counted as
    /// dropped, they made a recording that keeps up look like it loses frames whenever it is sampled.
    /// Read in the order pictures flow, so a picture moving on meanwhile is never counted as lost; while
    /// running, one picture can be between a counter and the queue at each end, in neither count yet.
    package var droppedPictures: Int {
        let offered = composed.value
        let waiting = pictureQueueLevel?.level ?? 0
        let inHand = started.value && !stopped.value ? 2 : 0
        return max(0, offered - waiting - encoded.value - inHand)
    }

    /// Ends every source branch from just downstream of the source, which works whatever state the
    /// source is in (failed, or blocked waiting for a device).
    ///
    /// Each end is sent from a thread of its own: an end a switch holds back (input-selector keeps an
    /// input's end until its other inputs end too) must hold up neither the other branches nor the stop's
    /// time limit. The teardown that follows releases it.
    func endAllSourcesFromDownstream() {
        var ends: [@Sendable () -> Void] = keepers.map { keeper in { keeper.endOfStream() } }
        // A slate's source and an optional camera's "waiting" picture are left alone: each feeds a switch
        // whose branch the keeper ends below it.
        let kept = Set(keepers.flatMap { keeper in
            [keeper.kept.source.name, keeper.kept.slate?.source.name, keeper.kept.placeholder.first?.name].compactMap { $0 }
        })
        for node in plan.nodes where node.factory.isSource && !kept.contains(node.name) {
            guard let source = pipeline[node.handle], let pad = try? source.staticPad("src"), let peer = pad.peer else { continue }
            ends.append { peer.sendEndOfStream() }
        }
        for end in ends { DispatchQueue.global().async(execute: end) }
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
            }
        }
        for link in next.links where !link.padProperties.isEmpty {
            guard let padName = link.toPad, let element = pipeline[link.target] else { continue }
            let pad = try element.staticPad(padName)
            for (property, value) in link.padProperties { try pad.set(property, value) }
        }
        plan = next
    }
}
