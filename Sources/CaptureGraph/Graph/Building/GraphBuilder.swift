import CaptureModel
import GStreamer

/// Compiles a validated configuration into a `GraphPlan`. The one place that decides the graph:
///
///     camera ─ caps ─ queue(leaky) ─ tee ─┬─ queue ─ valve ─ flip ─┐
///     camera ─ …                          │                        compositor ─ caps ─ x264 ─ parse ─┐
///                                         ├─ (isolated track) ─ x264 ─ parse ───────────────────────┤
///                                         ├─ (video data) ─ scale ─ convert ─ appsink             matroskamux ─ file
///                                         └─ (preview) ─ compositor ─ caps ─ text ─ convert ─ window
///     mic ─ convert ─ resample ─ caps ─ queue(leaky) ─ stages ─ level ─ tee ─┬─ audiomixer ─ opus ───┤
///                                                                            └─ (own track) ─ opus ─┘
///
/// Each input gets its source (`CameraSources`, `MicrophoneSources`), then a branch per connection with
/// its switch (and a camera's flip), teed; each output adds its own part after that: the movie file
/// (`MovieFilePart`, through the shared picture and mix of `ProgramStage`), the preview (`PreviewPart`),
/// data outputs (`DataTaps`), photos (a probe on the captured frames). A camera device's caps and queue
/// have a switch between them, where a slate stands in while the device is lost (`SourceKeeper`). Each
/// camera is converted and scaled once: the compositor pad scales it into its region, and the inset
/// camera is captured near the size it is shown unless an isolated track wants it whole (`CaptureModes`).
struct GraphBuilder {
    let configuration: SessionConfiguration
    var plan = GraphPlan()

    init(_ configuration: SessionConfiguration) {
        self.configuration = configuration
    }

    static func plan(for configuration: SessionConfiguration) throws -> GraphPlan {
        try configuration.validate()
        let encoder = configuration.movieFile?.encoder ?? .software
        let refusals = encoder == .software ? [] : HardwareEncoders.trial().refusals
        if encoder == .hardware && EncoderChoice.hardwareEncoder() == nil {
            let why = refusals.isEmpty
                ? "\(EncoderChoice.hardwareFactories.map(\.rawValue).joined(separator: ", ")) need \(ElementFactory.packages(of: EncoderChoice.hardwareFactories).joined(separator: " or ")) and a VA-API driver or V4L2 encoder device"
                : refusals.joined(separator: "; ")
            throw CaptureError.invalidConfiguration("no hardware H.264 encoder is available: \(why); use encoder: software")
        }
        var builder = GraphBuilder(configuration)
        builder.build()
        if encoder == .automatic && EncoderChoice.hardwareEncoder() == nil && !refusals.isEmpty {
            builder.plan.encoderFallback = "hardware encoding: \(refusals.joined(separator: "; ")); recording with x264"
        }
        return builder.plan
    }

    /// The colours cameras drawn by pipcam state: one for all, whatever their size (see `.testPattern`).
    static let drawnColorimetry = "bt709"

    /// Frames a camera's queues hold before the oldest is dropped: enough to ride out a busy moment,
    /// few enough that the picture stays live. The frame counts read it too (`CameraTaps.framesOnTheWay`).
    static let cameraQueueFrames = 3
    /// Pictures waiting for the encoder when it keeps up; pictures made behind more are not kept for reuse
    /// (`Pad.freeBackloggedFrames`).
    static let steadyPictureBacklog = 2

    /// Live branches drop the oldest frame rather than stall the camera when downstream is slow.
    static func leakyQueue(buffers: Int) -> [(String, PropertyValue)] {
        [("leaky", .string("downstream")), ("max-size-buffers", .uint(UInt64(buffers))),
         ("max-size-bytes", .uint(0)), ("max-size-time", .uint(0))]
    }

    /// What each of a microphone's queues holds: about a second of sound (sound cards deliver buffers of
    /// 10 ms, a kilobyte or two), so a machine too busy to mix for a moment loses none of it. With a fifth
    /// of a second, an emulated machine busy encoding lost sound in three recordings of four, unreported.
    static let microphoneQueueBuffers = 100
    /// What a sound card holds for pipcam before it overruns: a second, so a capture thread kept waiting
    /// on a busy machine loses less. With ALSA's usual fifth of a second, an emulated machine busy
    /// encoding kept a microphone's tone for 3.3 s and 4.7 s of 14.5; with a second, 7.1 s to 14.5 s
    /// (14.5 s in three runs of six).
    static let soundCardBufferMicroseconds: Int64 = 1_000_000

    /// What the cameras' branches need to know of the picture they are composed into.
    private struct Picture {
        let composed: (main: Connection, inset: Connection?)?
        let regions: (main: Region, inset: Region)
        let modes: [String: CaptureMode]
        let rate: Double
    }

    private mutating func build() {
        let size = configuration.preset.outputSize
        let composed = configuration.composedCameras()
        let regions = configuration.layout.regions(width: size.width, height: size.height)
        let chooser = CaptureModes(configuration: configuration)
        let (chosen, rate) = chooser.choose(composed: composed, regions: regions)
        let modes = configuration.throttle.map { chooser.throttled(chosen, by: $0, composed: composed) } ?? chosen
        let picture = Picture(composed: composed, regions: regions, modes: modes, rate: rate)
        plan.outputSize = size
        plan.frameRate = rate
        plan.placedEarlier = DelayLines.longest(in: configuration)
        var file = configuration.movieFile.map { MovieFilePart(configuration: configuration, movie: $0) }
        for (index, input) in configuration.inputs.enumerated() where input.device.isCamera {
            addCamera(input, index: index, picture: picture, file: &file)
        }
        file?.addPicture(size: size, rate: rate, to: &plan)
        if let preview = configuration.previewOutput { PreviewPart(configuration: configuration).addOutputs(preview, rate: rate, to: &plan) }
        for (index, input) in configuration.inputs.enumerated() where !input.device.isCamera {
            addMicrophone(input, index: index, file: &file)
        }
        file?.addMix(to: &plan)
        if configuration.replay == .fast { plan.makeQueuesWait() }
        file?.addWriter(to: &plan)
        if plan.placedEarlier > .zero { plan.startSinksWithoutData() }
    }

    /// A camera's source, then a branch for each of its connections (queue, switch, flip), teed, and each
    /// output's part after the flip. Stills are taken off the captured frames by a one-shot probe.
    private mutating func addCamera(_ input: DeviceInput, index: Int, picture: Picture, file: inout MovieFilePart?) {
        let connections = configuration.connections.filter { $0.inputPorts.contains(input.port) }
        guard !connections.isEmpty, let mode = picture.modes[input.id] else { return }
        plan.branchInput = input.id
        defer { plan.branchInput = nil }
        let prefix = "cam" + String(index)
        plan[input: input.id].mode = mode
        let captured = CameraSources(configuration: configuration).add(input, mode: mode, prefix: prefix, to: &plan)
        let isolated = configuration.isIsolated(connections)
        var heads: [String] = []
        var deliveredTap: (String, String)?
        if connections.contains(where: { $0.outputID == configuration.photoOutput?.id }) { plan[input: input.id].stillSource = ElementHandle(captured) }
        for connection in connections where connection.outputID != configuration.photoOutput?.id {
            let branch = "\(prefix)-\(connection.outputID)"
            let tap = configuration.videoDataOutputs.first { $0.id == connection.outputID }
            let buffers = tap?.alwaysDiscardsLateVideoFrames == false ? DataDelivery<VideoDataFrame>.backlog : Self.cameraQueueFrames
            let queue = DelayLines.addQueue("\(branch)-queue", carrying: input, intoFile: connection.outputID == file?.movie.id,
                                            usual: Self.leakyQueue(buffers: buffers), configuration, to: &plan)
            let valve = plan.add("\(branch)-valve", .valve, valve(connection))
            let flip = plan.add("\(branch)-flip", .videoflip, Self.flip(connection))
            plan.chain([queue, valve, flip])
            heads.append(queue)
            if connection.outputID == file?.movie.id {
                let region = connection == picture.composed?.main ? picture.regions.main : picture.regions.inset
                deliveredTap = file?.addCamera(input, branch: branch, after: flip, mode: mode, region: region, isolated: isolated, to: &plan)
            } else if let tap {
                DataTaps.addVideo(tap, branch: branch, after: flip, to: &plan)
            } else if connection.outputID == configuration.previewOutput?.id {
                PreviewPart(configuration: configuration).addCamera(connection, after: flip, rate: picture.rate, to: &plan)
            }
        }
        if heads.isEmpty { heads.append(plan.addDiscard("\(prefix)-discard")) }
        plan.fanOut(from: captured, to: heads, tee: "\(prefix)-tee")
        // The capture queue, the connection's queue and, for a camera with its own track, the picture's.
        let queues = isolated ? 3 : 2
        // A kept camera's frames are counted where its own come in, before the switch: its placeholder
        // and its slate are not pictures the camera sent.
        let counted = plan[input: input.id].kept?.frames ?? ElementHandle(captured)
        plan[input: input.id].taps = .init(inputID: input.id, captured: counted, delivered: deliveredTap.map { ElementHandle($0.0) },
                                           deliveredPad: deliveredTap?.1,
                                           framesOnTheWay: queues * (Self.cameraQueueFrames + 1) + DelayLines.heldFrames(of: input, rate: mode.frameRate, configuration, plan: plan),
                                           countedFrom: DelayLines.delay(of: input, in: configuration))
    }

    /// A microphone's source, then a branch for each of its connections (queue, switch), teed, and each
    /// output's part after the switch.
    private mutating func addMicrophone(_ input: DeviceInput, index: Int, file: inout MovieFilePart?) {
        let connections = configuration.connections.filter { $0.inputPorts.contains(input.port) }
        guard !connections.isEmpty else { return }
        plan.branchInput = input.id
        defer { plan.branchInput = nil }
        let prefix = "mic" + String(index)
        let source = MicrophoneSources(configuration: configuration).add(input, prefix: prefix, to: &plan)
        // A meter of the sound as the device gives it, for its clipping alone: the stages may hide it.
        let inputLevel = plan.add(prefix + "-input-level", .level, [("interval", .uint(SoundLevel.intervalNanoseconds))])
        plan.link(source, to: inputLevel)
        plan[input: input.id].deviceMeter = ElementHandle(inputLevel)
        let stages = SoundStages.add(input.sound, prefix: prefix, to: &plan)
        // A raw own track takes the sound before the stages, through a switch of its own that follows the
        // connection's.
        let rawTrack = input.sound.ownTrack == .raw && file?.hasOwnTracks == true
            && connections.contains { $0.outputID == file?.movie.id }
        let rawQueue = rawTrack
            ? DelayLines.addQueue("\(prefix)-raw-queue", carrying: input, intoFile: true, usual: Self.leakyQueue(buffers: Self.microphoneQueueBuffers),
                                  configuration, to: &plan)
            : nil
        plan.fanOut(from: inputLevel, to: [stages.first] + (rawQueue.map { [$0] } ?? []), tee: "\(prefix)-raw-tee")
        // The meter: the sound's peak and loudness ten times a second, as it is recorded.
        let captured = plan.add("\(prefix)-level", .level, [("interval", .uint(SoundLevel.intervalNanoseconds))])
        plan.link(stages.last, to: captured)
        var heads: [String] = []
        for connection in connections {
            let branch = "\(prefix)-\(connection.outputID)"
            // The preview takes a microphone for its meter only.
            if connection.outputID == configuration.previewOutput?.id {
                heads.append(plan.addDiscard("\(branch)-discard"))
                continue
            }
            let queue = DelayLines.addQueue("\(branch)-queue", carrying: input, intoFile: connection.outputID == file?.movie.id,
                                            usual: Self.leakyQueue(buffers: Self.microphoneQueueBuffers), configuration, to: &plan)
            let valve = plan.add("\(branch)-valve", .valve, valve(connection))
            plan.link(queue, to: valve)
            heads.append(queue)
            if connection.outputID == file?.movie.id {
                var rawValve: String?
                if let rawQueue {
                    rawValve = plan.add("\(branch)-raw-valve", .valve, plan.node(valve)!.properties)
                    plan.link(rawQueue, to: rawValve!)
                }
                file?.addMicrophone(input, branch: branch, after: valve, raw: rawValve, to: &plan)
            } else if let output = configuration.audioDataOutputs.first(where: { $0.id == connection.outputID }) {
                DataTaps.addSound(output, branch: branch, after: valve, to: &plan)
            }
        }
        plan.fanOut(from: captured, to: heads, tee: "\(prefix)-tee")
    }

    /// A connection's on/off switch. Switched off, it turns buffers into gaps, so the compositor, mixers
    /// and muxer carry on without waiting for it. A preview nobody sees (no window, no watcher of its
    /// pictures) is off too, so it costs no scaling.
    private func valve(_ connection: Connection) -> [(String, PropertyValue)] {
        let unseen = connection.outputID == configuration.previewOutput?.id && configuration.previewOutput?.isShown == false
        return [("drop", .bool(!connection.isEnabled || unseen)), ("drop-mode", .string("transform-to-gap"))]
    }

    /// A connection's flip. GStreamer 1.22's videoflip copies every frame when it is created unflipped (it
    /// only turns to passthrough on a change of direction); setting the deprecated `method` to a flip
    /// first makes `video-direction` such a change, so an unflipped camera costs no copy. Both are set
    /// in order, by the assembler and by gst-launch alike.
    private static func flip(_ connection: Connection) -> [(String, PropertyValue)] {
        [("method", .string("horizontal-flip")), ("video-direction", .string(connection.videoDirection.rawValue))]
    }
}

extension GraphPlan {
    /// Feeds branches from one element: directly when there is one, through a tee when there are more.
    mutating func fanOut(from source: String, to branches: [String], tee name: String) {
        guard branches.count > 1 else {
            if let only = branches.first { link(source, to: only) }
            return
        }
        let tee = add(name, .tee)
        link(source, to: tee)
        for (index, branch) in branches.enumerated() { link(tee, "src_\(index)", to: branch) }
    }

    /// A sink that takes whatever comes, at once: the end of a branch nothing else reads.
    mutating func addDiscard(_ name: String) -> String {
        add(name, .fakesink, [("sync", .bool(false)), ("async", .bool(false))])
    }
}
