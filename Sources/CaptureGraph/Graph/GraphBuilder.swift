import CaptureModel
import GStreamer

/// Compiles a validated configuration into a `GraphPlan`. The one place that decides the graph:
///
///     camera ─ caps ─ queue(leaky) ─ tee ─┬─ queue ─ valve ─ flip ─┐
///     camera ─ …                          │                        compositor ─ caps ─ x264 ─ parse ─┐
///                                         ├─ (isolated track) ─ x264 ─ parse ───────────────────────┤
///                                         ├─ (video data) ─ scale ─ convert ─ appsink             matroskamux ─ file
///                                         └─ (preview) ─ compositor ─ caps ─ text ─ convert ─ window (GraphBuilder+Preview)
///     mic ─ convert ─ resample ─ caps ─ queue(leaky) ─ tee ─┬─ audiomixer ─ opus ────────────────────┤
///                                                           └─ (own track) ─ opus ──────────────────┘
///
/// A camera device's caps and queue have a switch between them, where a slate stands in while the device
/// is lost (`SourceKeeper`). Each camera is converted and scaled once: the compositor pad scales it into
/// its region, and the inset camera is captured near the size it is shown unless an isolated track wants
/// it whole.
struct GraphBuilder {
    let configuration: SessionConfiguration
    var plan = GraphPlan()

    init(_ configuration: SessionConfiguration) {
        self.configuration = configuration
    }

    static func plan(for configuration: SessionConfiguration) throws -> GraphPlan {
        try configuration.validate()
        if configuration.movieFile?.encoder == .hardware && EncoderChoice.hardwareEncoder() == nil {
            throw CaptureError.invalidConfiguration("no hardware H.264 encoder is available: \(EncoderChoice.hardwareFactories.map(\.rawValue).joined(separator: ", ")) need \(MissingElements(EncoderChoice.hardwareFactories).packages.joined(separator: " or ")) and a VA-API driver or V4L2 encoder device; use encoder: software")
        }
        var builder = GraphBuilder(configuration)
        try builder.build()
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

    /// How late a microphone's audio may arrive before the mixer fills in silence. Sound cards deliver
    /// in bursts, and more so on a loaded machine; half a second costs nothing in a recording.
    private static let mixerLatency: [(String, PropertyValue)] = [("latency", .uint(500_000_000))]

    /// Encoded streams must never lose data; a deep queue absorbs encoder bursts before the muxer.
    private static let muxQueue: [(String, PropertyValue)] = [
        ("max-size-buffers", .uint(0)), ("max-size-bytes", .uint(0)), ("max-size-time", .uint(3_000_000_000)),
    ]

    private mutating func build() throws {
        let (width, height) = configuration.preset.outputSize
        var muxVideo: [String] = [], muxAudio: [String] = [], muxIsolated: [String] = []
        // Each track's name, by the element that feeds the muxer.
        var titles: [String: String] = [:]
        let composed = configuration.composedCameras()
        let regions = configuration.layout.regions(width: width, height: height)
        let (chosen, rate) = chooseModes(composed: composed, regions: regions)
        let modes = configuration.throttle.map { throttled(chosen, by: $0, composed: composed) } ?? chosen
        plan.outputSize = (width, height)
        plan.frameRate = rate

        // Cameras.
        for (index, input) in configuration.inputs.enumerated() where input.device.isCamera {
            let connections = configuration.connections.filter { $0.inputPorts.contains(input.port) }
            guard !connections.isEmpty else { continue }
            plan.branchInput = input.id
            defer { plan.branchInput = nil }
            let prefix = "cam\(index)"
            let mode = modes[input.id]!
            plan.cameraModes[input.id] = mode
            let captured = addCameraSource(input, mode: mode, prefix: prefix)
            var heads: [String] = []
            var deliveredTap: (String, String)?
            if connections.contains(where: { $0.outputID == configuration.photoOutput?.id }) {
                // Stills are taken off the captured frames by a one-shot probe; no branch of their own.
                plan.stillSources[input.id] = ElementHandle(captured)
            }
            for connection in connections where connection.outputID != configuration.photoOutput?.id {
                let branch = "\(prefix)-\(connection.outputID)"
                let keepsLate = configuration.videoDataOutputs.first { $0.id == connection.outputID }?.alwaysDiscardsLateVideoFrames == false
                let queue = plan.add("\(branch)-queue", .queue, Self.leakyQueue(buffers: keepsLate ? DataDelivery<VideoDataFrame>.backlog : Self.cameraQueueFrames))
                let valve = plan.add("\(branch)-valve", .valve, Self.valve(connection))
                let flip = plan.add("\(branch)-flip", .videoflip, Self.flip(connection))
                plan.chain([queue, valve, flip])
                heads.append(queue)
                if let movie = configuration.movieFile, connection.outputID == movie.id {
                    let compositor = ensureCompositor()
                    let pad = "sink_\(plan.compositorPads.count)"
                    plan.compositorPads[input.id] = pad
                    let region = connection == composed?.main ? regions.main : regions.inset
                    var toPicture = flip
                    if isIsolated(connections) {
                        // The camera's own track shares the connection's switch and flip, at the captured size.
                        toPicture = plan.add("\(branch)-picture-queue", .queue, Self.leakyQueue(buffers: Self.cameraQueueFrames))
                        let trackQueue = plan.add("\(branch)-track-queue", .queue, Self.leakyQueue(buffers: Self.cameraQueueFrames))
                        fanOut(from: flip, to: [toPicture, trackQueue], tee: "\(branch)-tee")
                        let convert = plan.add("\(branch)-track-convert", .videoconvert)
                        let caps = plan.add("\(branch)-track-caps", .capsfilter, [("caps", .caps(GraphCaps.picture()))])
                        let encoded = addVideoEncoder(movie, prefix: "\(branch)-track", bitrate: bitrate(for: mode), rate: mode.frameRate)
                        plan.chain([trackQueue, convert, caps, encoded.first])
                        muxIsolated.append(encoded.last)
                        plan.isolatedEncoders.append(ElementHandle(encoded.first))
                        plan.trackGrids[ElementHandle(caps)] = mode.frameRate
                        titles[encoded.last] = input.label
                    }
                    plan.link(toPicture, to: compositor, pad, padProperties: Self.padProperties(region))
                    deliveredTap = (compositor, pad)
                } else if let output = configuration.videoDataOutputs.first(where: { $0.id == connection.outputID }) {
                    addVideoTap(output, branch: branch, after: flip)
                } else if connection.outputID == configuration.previewOutput?.id {
                    addToPreview(connection, after: flip, rate: rate)
                }
            }
            if heads.isEmpty { heads.append(addDiscard("\(prefix)-discard")) }
            fanOut(from: captured, to: heads, tee: "\(prefix)-tee")
            // The capture queue, the connection's queue and, for a camera with its own track, the picture's.
            let queues = isIsolated(connections) ? 3 : 2
            plan.cameraTaps.append(.init(inputID: input.id, captured: ElementHandle(captured), delivered: deliveredTap.map { ElementHandle($0.0) },
                                         deliveredPad: deliveredTap?.1, framesOnTheWay: queues * (Self.cameraQueueFrames + 1)))
        }

        if let compositor = plan.compositor?.name, let movie = configuration.movieFile {
            let caps = plan.add("picture-caps", .capsfilter, [("caps", .caps(GraphCaps.picture(width: width, height: height, frameRate: rate)))])
            plan.compositeSource = ElementHandle(caps)
            let ring = configuration.photoOutput?.isLivePhotoCaptureEnabled == true
            if movie.writesFile || ring {
                // A second of pictures absorbs the encoder's start and its bursts. A machine that cannot encode
                // in real time drops composed pictures here (counted, and shown in the status line) rather than
                // letting the recording fall ever further behind the cameras and microphones.
                let queue = plan.add("picture-queue", .queue, Self.leakyQueue(buffers: max(8, Int(rate.rounded()))))
                plan.pictureQueue = ElementHandle(queue)
                let encoded = addVideoEncoder(movie, prefix: "picture", bitrate: movie.videoBitrate ?? configuration.preset.videoBitrate, rate: rate,
                                              keyFrameSeconds: ring || movie.segmenting != nil ? 1 : 2, livePhotoRing: ring)
                plan.chain([compositor, caps, queue, encoded.first])
                plan.pictureEncoder = ElementHandle(encoded.first)
                // Live photos are cut from the encoded picture even when it is not written.
                if movie.writesFile { muxVideo.append(encoded.last) } else { plan.link(encoded.last, to: addDiscard("picture-discard")) }
                let shown = configuration.movieConnections(.video).compactMap { configuration.input($0.inputPorts[0].inputID)?.label }
                titles[encoded.last] = "Picture" + (shown.isEmpty ? "" : ": " + shown.joined(separator: " + "))
            } else {
                // Composed for photos of the picture only: nothing encodes it.
                plan.chain([compositor, caps, addDiscard("picture-discard")])
            }
        }

        if let preview = configuration.previewOutput { addPreviewWindow(preview, rate: rate) }

        // Microphones.
        let movieMicrophones = configuration.movieConnections(.audio)
        var mixerInputs = 0
        for (index, input) in configuration.inputs.enumerated() where !input.device.isCamera {
            let connections = configuration.connections.filter { $0.inputPorts.contains(input.port) }
            guard !connections.isEmpty else { continue }
            plan.branchInput = input.id
            defer { plan.branchInput = nil }
            let prefix = "mic\(index)"
            let captured = addMicrophoneSource(input, prefix: prefix)
            var heads: [String] = []
            for connection in connections {
                let branch = "\(prefix)-\(connection.outputID)"
                let queue = plan.add("\(branch)-queue", .queue, Self.leakyQueue(buffers: Self.microphoneQueueBuffers))
                let valve = plan.add("\(branch)-valve", .valve, Self.valve(connection))
                plan.link(queue, to: valve)
                heads.append(queue)
                if let movie = configuration.movieFile, connection.outputID == movie.id {
                    let mixer = ensureMixer()
                    var toMix = valve
                    if movie.audioTracks == .mixedAndSeparate && movieMicrophones.count > 1 {
                        // The microphone's own track shares the connection's switch. A one-input mixer keeps
                        // it going at the clock's pace, with silence if the microphone stops delivering;
                        // without it one stalled microphone would stall the muxer, and every track with it.
                        toMix = plan.add("\(branch)-mix-queue", .queue, Self.leakyQueue(buffers: Self.microphoneQueueBuffers))
                        let trackQueue = plan.add("\(branch)-track-queue", .queue, Self.leakyQueue(buffers: Self.microphoneQueueBuffers))
                        fanOut(from: valve, to: [toMix, trackQueue], tee: "\(branch)-tee")
                        let pace = plan.add("\(branch)-track-pace", .audiomixer, Self.mixerLatency)
                        plan.link(trackQueue, to: pace, "sink_0")
                        let encoder = addAudioEncoder(movie, prefix: "\(branch)-track", after: pace)
                        muxAudio.append(encoder)
                        titles[encoder] = input.label
                    }
                    plan.link(toMix, to: mixer, "sink_\(mixerInputs)", padProperties: [("mute", .bool(isMutedInMix(input.id)))])
                    mixerInputs += 1
                } else if let output = configuration.audioDataOutputs.first(where: { $0.id == connection.outputID }) {
                    var chain = [valve, plan.add("\(branch)-convert", .audioconvert)]
                    if output.sampleRate != nil { chain.append(plan.add("\(branch)-resample", .audioresample)) }
                    chain.append(plan.add("\(branch)-caps", .capsfilter, [("caps", .caps(output.caps))]))
                    chain.append(addAppSink(for: output.id, branch: branch, discardsLate: output.alwaysDiscardsLateBuffers))
                    plan.chain(chain)
                }
            }
            fanOut(from: captured, to: heads, tee: "\(prefix)-tee")
        }
        if let mixer = plan.mixerName, let movie = configuration.movieFile {
            let caps = plan.add("mix-caps", .capsfilter, [("caps", .caps(GraphCaps.sound(channels: 2)))])
            plan.link(mixer, to: caps)
            let encoder = addAudioEncoder(movie, prefix: "mix", after: caps)
            muxAudio.insert(encoder, at: 0)
            let heard = movieMicrophones.compactMap { configuration.input($0.inputPorts[0].inputID)?.label }
            titles[encoder] = heard.count == 1 ? heard[0] : "Mix"
        }

        if configuration.replay == .fast { plan.makeQueuesWait() }

        // The file: tracks in order (picture, mix, microphones, isolated cameras).
        if let movie = configuration.movieFile, movie.writesFile {
            let mux: String
            if let segmenting = movie.segmenting {
                mux = addPartsWriter(movie.path, segmenting)
            } else {
                mux = plan.add("mux", .matroskamux, [("writing-app", .string("pipcam"))])
                // Unbuffered: what the muxer writes reaches the system at once, where a crash of pipcam cannot
                // take it, and the file's sync every second (`FileInProgress`) takes it to the disk.
                let file = plan.add("file", .filesink, [("location", .string(movie.path)), ("buffer-mode", .string("unbuffered"))])
                plan.fileSink = ElementHandle(file)
                plan.link(mux, to: file)
            }
            plan.mux = ElementHandle(mux)
            var videoIndex = 0, audioIndex = 0
            for source in muxVideo + muxAudio + muxIsolated {
                let isAudio = muxAudio.contains(source)
                // The parts' writer cuts at its "video" track's key frames; it names the other video pads
                // after its muxer's ("video_1"), but they are asked for by its own template.
                let inParts = movie.segmenting != nil
                let pad = isAudio ? "audio_\(audioIndex)" : inParts && videoIndex == 0 ? "video" : "video_\(videoIndex)"
                let asked = inParts && !isAudio && videoIndex > 0 ? "video_aux_\(videoIndex - 1)" : pad
                if isAudio { audioIndex += 1 } else { videoIndex += 1 }
                plan.link(source, to: mux, asked)
                let isDefault = source == muxVideo.first || source == muxAudio.first
                plan.muxTracks.append(.init(pad: pad, title: titles[source] ?? "", isDefault: isDefault))
            }
        }
    }

    // MARK: pieces

    /// A recording in parts (see `Segmenting`): splitmuxsink cuts at the picture's key frames, asking the
    /// picture's encoder for one when a part is due (`RunningGraph` passes the request on to the cameras'
    /// own encoders). It holds each group of pictures until the next key frame, so the picture has one
    /// every second (not two): what a crash can take stays within the two seconds the single file keeps.
    /// Each part gets a muxer and a file writer of its own, set up as the single file's, and is named as
    /// it begins (`RecordingParts`).
    private mutating func addPartsWriter(_ path: String, _ segmenting: Segmenting) -> String {
        var properties: [(String, PropertyValue)] = [
            ("location", .string(path)), ("async-finalize", .bool(true)), ("send-keyframe-requests", .bool(true)),
            ("muxer-factory", .string(ElementFactory.matroskamux.rawValue)), ("muxer-properties", .string("properties,writing-app=pipcam")),
            // buffer-mode 2 is unbuffered (see the single file's writer).
            ("sink-factory", .string(ElementFactory.filesink.rawValue)), ("sink-properties", .string("properties,buffer-mode=2")),
        ]
        if let time = segmenting.time { properties.append(("max-size-time", .uint(UInt64(time.seconds * 1e9)))) }
        if let bytes = segmenting.bytes { properties.append(("max-size-bytes", .uint(UInt64(bytes)))) }
        return plan.add("mux", .splitmuxsink, properties)
    }

    /// A video data output's branch: scaled first (cheap at a smaller size), then converted; elements the
    /// output does not need are left out, so a tap of the captured frames as they are costs almost nothing.
    private mutating func addVideoTap(_ output: VideoDataOutput, branch: String, after flip: String) {
        var chain = [flip]
        if output.size != nil { chain.append(plan.add("\(branch)-scale", .videoscale)) }
        if output.pixelFormat != nil { chain.append(plan.add("\(branch)-convert", .videoconvert)) }
        chain.append(plan.add("\(branch)-caps", .capsfilter, [("caps", .caps(output.caps))]))
        chain.append(addAppSink(for: output.id, branch: branch, discardsLate: output.alwaysDiscardsLateVideoFrames))
        plan.chain(chain)
    }

    /// The appsink of a data output. It never syncs to the clock (frames are already live) and never lets
    /// buffers pile up: `DataDelivery` decides what a slow consumer loses.
    private mutating func addAppSink(for outputID: String, branch: String, discardsLate: Bool) -> String {
        let sink = plan.add("\(branch)-sink", .appsink, [
            ("sync", .bool(false)), ("max-buffers", .uint(1)), ("drop", .bool(discardsLate)),
        ])
        plan.appSinks[outputID] = ElementHandle(sink)
        return sink
    }

    /// Feeds branches from one element: directly when there is one, through a tee when there are more.
    private mutating func fanOut(from source: String, to branches: [String], tee name: String) {
        guard branches.count > 1 else {
            if let only = branches.first { plan.link(source, to: only) }
            return
        }
        let tee = plan.add(name, .tee)
        plan.link(source, to: tee)
        for (index, branch) in branches.enumerated() { plan.link(tee, "src_\(index)", to: branch) }
    }

    /// A connection's on/off switch. Switched off, it turns buffers into gaps, so the compositor, mixers
    /// and muxer carry on without waiting for it.
    private static func valve(_ connection: Connection) -> [(String, PropertyValue)] {
        [("drop", .bool(!connection.isEnabled)), ("drop-mode", .string("transform-to-gap"))]
    }

    /// A connection's flip. GStreamer 1.22's videoflip copies every frame when it is created unflipped (it
    /// only turns to passthrough on a change of direction); setting the deprecated `method` to a flip
    /// first makes `video-direction` such a change, so an unflipped camera costs no copy. Both are set
    /// in order, by the assembler and by gst-launch alike.
    private static func flip(_ connection: Connection) -> [(String, PropertyValue)] {
        [("method", .string("horizontal-flip")), ("video-direction", .string(connection.videoDirection))]
    }

    private func isIsolated(_ connections: [Connection]) -> Bool {
        guard let movie = configuration.movieFile, movie.isolatedCameraTracks, movie.writesFile else { return false }
        return connections.contains { $0.outputID == movie.id }
    }

    /// Modes for every connected camera, at one rate: cameras composed into one picture share a frame
    /// rate, as in a multi-camera session; it is the highest all of them reach, up to the configured rate.
    private func chooseModes(composed: (main: Connection, inset: Connection?)?, regions: (main: Region, inset: Region)) -> (modes: [String: CaptureMode], rate: Double) {
        let cameras = configuration.inputs.filter(\.device.isCamera).compactMap { input -> (DeviceInput, [Connection])? in
            let connections = configuration.connections.filter { $0.inputPorts.contains(input.port) }
            return connections.isEmpty ? nil : (input, connections)
        }
        func modes(at rate: Double) -> [String: CaptureMode] {
            Dictionary(uniqueKeysWithValues: cameras.map { input, connections in
                (input.id, captureMode(for: input, connections: connections, composed: composed, regions: regions,
                                       isolated: isIsolated(connections), rate: rate))
            })
        }
        let target = configuration.effectiveFrameRate
        let first = modes(at: target)
        let common = min(target, first.values.map(\.frameRate).min() ?? target)
        return common < target - 0.01 ? (modes(at: common), common) : (first, target)
    }

    /// The cameras' modes under a throttle rung: the main and inset cameras captured at a share of
    /// their size, every camera at no more than the rung's rate. The picture keeps its size and rate
    /// (the compositor scales, the encoder skips pictures), so the change is live.
    private func throttled(_ modes: [String: CaptureMode], by settings: ThrottleSettings,
                           composed: (main: Connection, inset: Connection?)?) -> [String: CaptureMode] {
        modes.reduce(into: [:]) { result, entry in
            let (inputID, mode) = entry
            // A camera with a track of its own keeps its mode: the track's encoder and the file would have
            // to renegotiate. The picture's lower rate applies all the same, before its encoder.
            guard let input = configuration.input(inputID), input.activeFormat == nil || input.device.formats.isEmpty,
                  !isIsolated(configuration.connections.filter { $0.inputPorts.contains(input.port) }) else {
                result[inputID] = mode
                return
            }
            let scale = composed?.main.inputPorts.first?.inputID == inputID ? settings.mainScale
                : composed?.inset?.inputPorts.first?.inputID == inputID ? settings.insetScale : 1
            let size = ThrottleSettings.scaled(width: mode.width, height: mode.height, by: scale)
            let rate = min(mode.frameRate, settings.frameRate)
            result[inputID] = FormatChooser.choose(for: input.device, width: size.width, height: size.height, frameRate: rate)
        }
    }

    /// The size each camera must deliver: where it is shown, the whole picture for an isolated track or a
    /// photo, or the size a data output asks for; an explicit active format always wins.
    private func captureMode(for input: DeviceInput, connections: [Connection], composed: (main: Connection, inset: Connection?)?,
                             regions: (main: Region, inset: Region), isolated: Bool, rate target: Double) -> CaptureMode {
        let rate = input.activeFrameRate ?? target
        if let format = input.activeFormat {
            // A format given without a rate runs at the session's, or the one the device offers at that size
            // that serves it best.
            let offered = input.device.formats.first { $0.width == format.width && $0.height == format.height && $0.pixelFormat == format.pixelFormat }?.frameRates ?? []
            let nearest = FormatChooser.rate(among: offered, target: target) ?? target
            return CaptureMode(pixelFormat: input.device.formats.isEmpty ? nil : format.pixelFormat, width: format.width, height: format.height,
                               frameRate: input.activeFrameRate ?? (format.frameRates.isEmpty ? nearest : format.maxFrameRate))
        }
        let full = configuration.preset.outputSize
        var needed = (width: 0, height: 0)
        let recorded = connections.contains { $0.outputID == configuration.movieFile?.id }
        for connection in connections {
            var size = full
            let shown = connection == composed?.main ? regions.main : connection == composed?.inset ? regions.inset : nil
            if let shown, !isolated { size = (shown.width, shown.height) }
            if let shown = previewRegion(of: connection) { size = (shown.width, shown.height) }
            if connection.outputID == configuration.photoOutput?.id { size = full }
            if let tap = configuration.videoDataOutputs.first(where: { $0.id == connection.outputID }) {
                // A tap takes what the camera captures for the picture, or the size it asks for.
                guard let wanted = tap.size ?? (recorded ? nil : PixelSize(width: full.0, height: full.1)) else { continue }
                size = (wanted.width, wanted.height)
            }
            if connection.rotation.isQuarterTurn { size = (size.1, size.0) }
            needed = (max(needed.width, size.0), max(needed.height, size.1))
        }
        return FormatChooser.choose(for: input.device, width: needed.width, height: needed.height, frameRate: rate)
    }

    /// Adds the source and returns the element whose src pad carries the captured raw frames.
    private mutating func addCameraSource(_ input: DeviceInput, mode: CaptureMode, prefix: String) -> String {
        let queue = "\(prefix)-queue"
        switch input.device.source {
        case .v4l2(let path):
            addDeviceCamera(input, .v4l2src, [("device", .string(path))], mode: mode, prefix: prefix, queue: queue)
        case .pipewire(let target, _):
            // PipeWire negotiates nothing by itself: the caps filter's fixed mode (format included) is
            // what it is asked for, the mode the camera already streams in for the other program.
            addDeviceCamera(input, .pipewiresrc, [("target-object", .string(target))], mode: mode, prefix: prefix, queue: queue)
        case .testPattern(let pattern, let label, let moving):
            // The sync camera is drawn black by videotestsrc and lit by pipcam (see `Pad.drawSyncFlashes`).
            var properties: [(String, PropertyValue)] = [("is-live", .bool(true)), ("pattern", .string(pattern == "sync" ? "black" : pattern))]
            if moving && ["smpte", "smpte75", "bar", "colors", "gradient"].contains(pattern) {
                properties.append(("horizontal-speed", .int(4)))
            }
            if pattern == "ball" {
                // A yellow ball on dark blue: tells the second camera apart from bars at a glance.
                properties += [("background-color", .uint(0xff20_2080)), ("foreground-color", .uint(0xffff_e000))]
            }
            let source = plan.add("\(prefix)-src", .videotestsrc, properties)
            // Left to choose, the pattern would be drawn in its first format, 64-bit RGBA: eight bytes a
            // pixel to draw and convert. I420 is what the compositor composes in, so nothing converts.
            // Left unstated, the colours would be BT.709 from 720 lines up and BT.601 below: an HD main
            // camera and a smaller inset would differ, and the compositor, which takes the inset's, would
            // convert every main picture (a third of a core at 1080p). Every drawn camera states one.
            let caps = plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(mode.caps(format: "I420", colorimetry: Self.drawnColorimetry)))])
            if pattern == "sync" { plan.syncSignals[ElementHandle(caps)] = .flash }
            let clock = plan.add("\(prefix)-clock", .timeoverlay, [
                ("text", .string(DrawnText.markup(label))), ("halignment", .string("left")), ("valignment", .string("top")),
                ("font-desc", .string("Sans \(max(8, mode.height / 48))")),
            ])
            plan.chain([source, caps, clock, addCaptureQueue(queue)])
        case .file(let path):
            let reader: [String]
            switch Y4MClip.reading(ofFileAt: path) {
            case .mapped(let clip):
                // Mapped, not read: see Y4MClip. The pictures are pushed when the graph runs.
                reader = [plan.add("\(prefix)-src", .appsrc, [("caps", .caps(clip.caps)), ("format", .string("time"))])]
                plan.mappedClips[ElementHandle("\(prefix)-src")] = path
            case .raw, .unreadable:
                // decodebin would find the type and then read in 4 KiB pieces, a third of a second of
                // CPU per 10 s of 720p; read directly, the clip goes a megabyte at a time.
                reader = [plan.add("\(prefix)-src", .filesrc, [("location", .string(path)), ("blocksize", .uint(1 << 20))]),
                          plan.add("\(prefix)-decode", .y4mdec)]
            case .decoded:
                let decode = plan.add("\(prefix)-decode", .decodebin)
                plan.markDynamic(decode)
                reader = [plan.add("\(prefix)-src", .filesrc, [("location", .string(path))]), decode]
            }
            let fitted = fitted(prefix, caps: GraphCaps.size(width: mode.width, height: mode.height))
            // Paced by the clock, a clip is a live camera; replayed fast, it goes as fast as it is encoded.
            let pace = configuration.replay == .fast ? [] : [plan.add("\(prefix)-pace", .clocksync)]
            plan.chain(reader + fitted + pace + [addCaptureQueue(queue)])
        case .screen(let display, let region, let showsPointer):
            // The screen at its own size, converted and scaled to the mode; the caps filter's rate paces the
            // capture. XDamage would copy only what changed into a reused picture: a whole copy is simpler
            // and costs the same on a screen that moves.
            var properties: [(String, PropertyValue)] = [
                ("display-name", .string(display)), ("use-damage", .bool(false)), ("show-pointer", .bool(showsPointer)),
            ]
            if let region {
                properties += [("startx", .uint(UInt64(region.x))), ("starty", .uint(UInt64(region.y))),
                               ("endx", .uint(UInt64(region.x + region.width - 1))), ("endy", .uint(UInt64(region.y + region.height - 1)))]
            }
            let source = plan.add("\(prefix)-src", .ximagesrc, properties)
            plan.chain([source] + fitted(prefix, caps: mode.caps()) + [addCaptureQueue(queue)])
        case .screencast:
            // The portal's stream sends a picture when the screen changes, at a rate of its own: the last one
            // is sent again every 100 ms while nothing changes, and videorate makes the mode's steady rate.
            // Its pictures are copied out of the desktop's few shared buffers, which videorate and the
            // compositor would otherwise hold on to while the desktop waits for them back.
            let source = plan.add("\(prefix)-src", .pipewiresrc, [("keepalive-time", .int(100)), ("always-copy", .bool(true))])
            plan.screencasts[ElementHandle(source)] = input.id
            let rate = plan.add("\(prefix)-rate", .videorate)
            plan.chain([source, rate] + fitted(prefix, caps: mode.caps()) + [addCaptureQueue(queue)])
        case .alsa, .tone, .syncBeeps, .soundServer:
            break
        }
        plan.cameraCaps.insert("\(prefix)-caps")
        return queue
    }

    /// A real camera's source: asked for its mode exactly, decoded when the mode is MJPEG. When the
    /// recording goes on through a loss, a switch before the capture queue lets a slate stand in for
    /// the camera's frames (see `SourceKeeper`).
    ///
    /// An optional camera starts without its source: the keeper opens it once the graph plays, and again
    /// each second while it is absent or another program holds it. Its slate and its frames then differ in
    /// format, so both are made into the mode's picture after the switch; one whose modes are not known
    /// (absent when the session was made) is asked only for the rate.
    private mutating func addDeviceCamera(_ input: DeviceInput, _ factory: ElementFactory, _ properties: [(String, PropertyValue)],
                                          mode: CaptureMode, prefix: String, queue: String) {
        let source = "\(prefix)-src"
        let detached = keepsDevices && input.isOptional
        let asked = detached && input.device.formats.isEmpty ? CapsBuilder(.rawVideo).set("framerate", Fraction(rate: mode.frameRate)).caps : mode.caps()
        let caps = plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(asked))])
        var chain = detached ? [caps] : [plan.add(source, factory, properties), caps]
        if mode.pixelFormat == "MJPG" { chain.append(plan.add("\(prefix)-decode", .jpegdec)) }
        guard keepsDevices else {
            plan.chain(chain + [addCaptureQueue(queue)])
            return
        }
        plan.chain(chain)
        // Pictures of an input that is not shown are dropped at once rather than held back for the shown one.
        let selector = plan.add("\(prefix)-switch", .inputSelector, [("sync-streams", .bool(false))])
        var after = [selector]
        var waiting: [String] = []
        if detached {
            let picture = GraphCaps.picture(width: mode.width, height: mode.height, frameRate: mode.frameRate)
            after += [plan.add("\(prefix)-fit-convert", .videoconvert), plan.add("\(prefix)-fit-scale", .videoscale),
                      plan.add("\(prefix)-fit-caps", .capsfilter, [("caps", .caps(picture))])]
            // Until the camera's first frame: black with its name. Live from the start, it also gives the
            // branch the latency the compositor asks every input for (the camera's side has no source yet).
            waiting = [plan.add("\(prefix)-wait-src", .videotestsrc, [("is-live", .bool(true)), ("pattern", .string("black"))]),
                       plan.add("\(prefix)-wait-caps", .capsfilter, [("caps", .caps(picture))]),
                       plan.add("\(prefix)-wait-text", .textoverlay, Slate.textProperties("\(input.label)\nwaiting for the camera…", height: mode.height))]
            plan.chain(waiting)
            plan.link(waiting.last!, to: selector, "sink_0")
        }
        // An optional camera's frames are linked into the switch when the camera is first opened: an input
        // with nothing upstream would fail the latency query the switch answers for all its inputs, and the
        // compositor would no longer run live.
        if !detached { plan.link(chain.last!, to: selector, "sink_0") }
        let slate = addSlate(prefix: prefix, height: mode.height, frameRate: mode.frameRate, into: selector, "sink_1")
        plan.chain(after + [addCaptureQueue(queue)])
        plan.keptSources.append(.init(inputID: input.id, source: ElementHandle(source), factory: factory, properties: properties,
                                      next: ElementHandle(caps), selector: ElementHandle(selector), frames: ElementHandle(chain.last!),
                                      end: ElementHandle(queue), startsDetached: detached, placeholder: waiting.map { ElementHandle($0) },
                                      slate: slate))
    }

    /// A lost camera's slate, ready from the start (see `Slate`): its picture, caps and text come when it
    /// is put up. Until then it sends nothing; its live repeater answers the switch's latency query.
    ///
    /// The repeater is held to the camera's rate: left to itself, imagefreeze repeats at 25 pictures a
    /// second whatever the camera's rate, and a 15 fps camera's slate sent 10 a second more than the
    /// picture takes, each counted dropped: pressure read critical for as long as a camera was away.
    private mutating func addSlate(prefix: String, height: Int, frameRate: Double, into selector: String, _ input: String) -> GraphPlan.SlateParts {
        let rate = CapsBuilder(.rawVideo).set("framerate", Fraction(rate: frameRate)).caps
        let chain = [plan.add("\(prefix)-slate-src", .appsrc, [("is-live", .bool(true)), ("format", .string("time"))]),
                     plan.add("\(prefix)-slate-dim", .videobalance, [("brightness", .double(-0.2)), ("saturation", .double(0.4))]),
                     plan.add("\(prefix)-slate-text", .textoverlay, Slate.textProperties("", height: height)),
                     plan.add("\(prefix)-slate-repeat", .imagefreeze, [("is-live", .bool(true)), ("allow-replace", .bool(true))]),
                     plan.add("\(prefix)-slate-rate", .capsfilter, [("caps", .caps(rate))])]
        plan.chain(chain)
        plan.link(chain.last!, to: selector, input)
        return .init(source: ElementHandle(chain[0]), text: ElementHandle(chain[2]), repeater: ElementHandle(chain[3]), input: input)
    }

    /// Whether the recording goes on through a device's loss: its sources are kept (`SourceKeeper`).
    private var keepsDevices: Bool { configuration.deviceLoss.action == .continue }

    /// The queue every camera's captured frames wait in, which drops the oldest when the graph is behind.
    private mutating func addCaptureQueue(_ name: String) -> String {
        plan.add(name, .queue, Self.leakyQueue(buffers: Self.cameraQueueFrames))
    }

    /// Converts and scales a picture of any format and size (a clip, a screen) into `caps`: the camera's
    /// caps filter, named as the other cameras' are.
    private mutating func fitted(_ prefix: String, caps: Caps) -> [String] {
        [plan.add("\(prefix)-convert", .videoconvert), plan.add("\(prefix)-scale", .videoscale),
         plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(caps))])]
    }

    private mutating func addMicrophoneSource(_ input: DeviceInput, prefix: String) -> String {
        let source: String
        switch input.device.source {
        case .alsa(let device):
            source = plan.add("\(prefix)-src", .alsasrc, [("device", .string(device))])
        case .soundServer(let name):
            source = plan.add("\(prefix)-src", .pulsesrc, name.map { [("device", .string($0))] } ?? [])
        case .tone(let frequency):
            source = plan.add("\(prefix)-src", .audiotestsrc, [
                ("is-live", .bool(true)), ("wave", .string("sine")), ("freq", .double(frequency)), ("volume", .double(0.4)),
            ])
        case .syncBeeps:
            // Silence from audiotestsrc, with beeps put in by pipcam (see `Pad.soundSyncBeeps`) in the one
            // format they are written in.
            let silence = plan.add("\(prefix)-src", .audiotestsrc, [("is-live", .bool(true)), ("wave", .string("silence"))])
            source = plan.add("\(prefix)-beeps", .capsfilter, [("caps", .caps(GraphCaps.syncBeeps))])
            plan.chain([silence, source])
            plan.syncSignals[ElementHandle(source)] = .beep
        default:
            source = plan.add("\(prefix)-src", .audiotestsrc, [("is-live", .bool(true)), ("wave", .string("silence"))])
        }
        var chain = [source]
        if keepsDevices, input.device.isSoundDevice {
            // A card that comes back is asked for the format it had: the keeper fixes this filter's caps
            // to it when the card goes (a loopback card, for one, pairs its sides by the first to open).
            let format = plan.add("\(prefix)-format", .capsfilter)
            chain.append(format)
            let node = plan.node(source)!
            plan.keptSources.append(.init(inputID: input.id, source: ElementHandle(source), factory: node.factory, properties: node.properties,
                                          next: ElementHandle(format), selector: nil, end: ElementHandle(format)))
        }
        let convert = plan.add("\(prefix)-convert", .audioconvert)
        let resample = plan.add("\(prefix)-resample", .audioresample)
        let caps = plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(GraphCaps.sound(channels: 1)))])
        let queue = plan.add("\(prefix)-queue", .queue, Self.leakyQueue(buffers: Self.microphoneQueueBuffers))
        plan.chain(chain + [convert, resample, caps, queue])
        return queue
    }

    private mutating func ensureCompositor() -> String {
        if let name = plan.compositor?.name { return name }
        // Waiting up to 100 ms for a late camera frame keeps a busy machine from composing pictures
        // without it (a black or frozen region); a recording does not mind the delay.
        // The picture starts with the first camera frame: composed before any camera has one, its caps
        // are renegotiated when the cameras arrive and its timestamps restart, so the encoder stamps a
        // picture twice, the muxer drops it, and the file is broken up to the next key frame.
        let compositor = plan.shared { $0.add("picture", .compositor, [
            ("background", .string("black")), ("latency", .uint(100_000_000)), ("start-time-selection", .string("first")),
        ]) }
        plan.compositor = ElementHandle(compositor)
        return compositor
    }

    private mutating func ensureMixer() -> String {
        if let name = plan.mixerName { return name }
        plan.mixerName = plan.shared { $0.add("mix", .audiomixer, Self.mixerLatency) }
        return plan.mixerName!
    }

    /// With audio following the main camera, only the microphone paired with it (same position in the
    /// list of connections) is heard.
    func isMutedInMix(_ microphoneID: String) -> Bool {
        guard configuration.movieFile?.audioTracks == .followMainCamera, let main = configuration.composedCameras()?.main else { return false }
        let cameras = configuration.movieConnections(.video).map { $0.inputPorts[0].inputID }
        let microphones = configuration.movieConnections(.audio).map { $0.inputPorts[0].inputID }
        guard let cameraIndex = cameras.firstIndex(of: main.inputPorts[0].inputID), cameraIndex < microphones.count else { return false }
        return microphones[cameraIndex] != microphoneID
    }

    static func padProperties(_ region: Region) -> [(String, PropertyValue)] {
        [("xpos", .int(Int64(region.x))), ("ypos", .int(Int64(region.y))), ("width", .int(Int64(region.width))),
         ("height", .int(Int64(region.height))), ("zorder", .uint(UInt64(region.zOrder))),
         ("sizing-policy", .string("keep-aspect-ratio"))]
    }

    /// Returns the first and last element of encoder → parser → queue. With `livePhotoRing`, the encoded
    /// frames also go to an appsink that keeps the last seconds in memory for live photos (references to
    /// the same buffers: no copy, no second encode).
    private mutating func addVideoEncoder(_ movie: MovieFileOutput, prefix: String, bitrate: Int, rate: Double,
                                          keyFrameSeconds: Double = 2, livePhotoRing: Bool = false) -> (first: String, last: String) {
        let (factory, properties) = EncoderChoice.encoder(movie.encoder, bitrate: bitrate, frameRate: rate, keyFrameSeconds: keyFrameSeconds,
                                                          speed: movie.encoderSpeed)
        let encoder = plan.add("\(prefix)-encode", factory, properties)
        plan.encoders.append(ElementHandle(encoder))
        let parse = plan.add("\(prefix)-parse", .h264parse)
        let queue = plan.add("\(prefix)-mux-queue", .queue, Self.muxQueue)
        plan.chain([encoder, parse])
        if livePhotoRing {
            let ringQueue = plan.add("\(prefix)-ring-queue", .queue, Self.leakyQueue(buffers: Int(rate.rounded()) * 2))
            let sink = plan.add("\(prefix)-ring", .appsink, [("sync", .bool(false)), ("max-buffers", .uint(8)), ("drop", .bool(true))])
            plan.livePhotoSink = ElementHandle(sink)
            fanOut(from: parse, to: [queue, ringQueue], tee: "\(prefix)-ring-tee")
            plan.link(ringQueue, to: sink)
        } else {
            plan.link(parse, to: queue)
        }
        return (encoder, queue)
    }

    /// A sink that takes whatever comes, at once: the end of a branch nothing else reads.
    private mutating func addDiscard(_ name: String) -> String {
        plan.add(name, .fakesink, [("sync", .bool(false)), ("async", .bool(false))])
    }

    private mutating func addAudioEncoder(_ movie: MovieFileOutput, prefix: String, after upstream: String) -> String {
        let convert = plan.add("\(prefix)-convert", .audioconvert)
        let encoder = plan.add("\(prefix)-encode", .opusenc, [("bitrate", .int(Int64(movie.audioBitrate * 1000)))])
        plan.encoders.append(ElementHandle(encoder))
        let queue = plan.add("\(prefix)-mux-queue", .queue, Self.muxQueue)
        plan.chain([upstream, convert, encoder, queue])
        return queue
    }

    /// Isolated tracks get a bitrate in proportion to their pixels (the preset's rate is for its size).
    private func bitrate(for mode: CaptureMode) -> Int {
        let (width, height) = configuration.preset.outputSize
        let base = configuration.movieFile?.videoBitrate ?? configuration.preset.videoBitrate
        return max(300, Int(Double(base) * Double(mode.width * mode.height) / Double(width * height)))
    }
}
