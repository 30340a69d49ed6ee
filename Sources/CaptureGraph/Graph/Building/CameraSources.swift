import CaptureModel
import GStreamer

/// Each camera's source, up to its capture queue: the device, a drawn pattern, a clip or a screen, made
/// into the mode the camera was given (`CaptureModes`). A device kept through its loss gets a switch and
/// a slate before the queue (`SourceKeeper`).
struct CameraSources {
    let configuration: SessionConfiguration

    /// Adds the source and returns the element whose src pad carries the captured raw frames.
    func add(_ input: DeviceInput, mode: CaptureMode, prefix: String, to plan: inout GraphPlan) -> String {
        let queue = "\(prefix)-queue"
        switch input.device.source {
        case .v4l2(let path):
            addDeviceCamera(input, .element(.v4l2src, [("device", .string(path))]), mode: mode, prefix: prefix, queue: queue, &plan)
        case .pipewire(let target, _):
            // PipeWire negotiates nothing by itself: the caps filter's fixed mode (format included) is
            // what it is asked for, the mode the camera already streams in for the other program.
            addDeviceCamera(input, .element(.pipewiresrc, [("target-object", .string(target))]), mode: mode, prefix: prefix, queue: queue, &plan)
        case .network(let camera):
            // Opened once the graph plays, as an optional camera is (the session has asked one it needs
            // for a picture already): the camera takes its place at its first picture.
            addDeviceCamera(input, .network(camera, frameRate: mode.frameRate), mode: mode, prefix: prefix, queue: queue, &plan)
        case .testPattern(let pattern, let label, let moving):
            addDrawn(pattern: pattern, label: label, moving: moving, mode: mode, prefix: prefix, queue: queue, &plan)
        case .file(let path):
            addClip(path, mode: mode, prefix: prefix, queue: queue, &plan)
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
            let fitted = fitted(prefix, caps: mode.caps(), &plan)
            plan.chain([source] + fitted + [addCaptureQueue(queue, &plan)])
        case .screencast:
            // The portal's stream sends a picture when the screen changes, at a rate of its own: the last one
            // is sent again every 100 ms while nothing changes, and videorate makes the mode's steady rate.
            // Its pictures are copied out of the desktop's few shared buffers, which videorate and the
            // compositor would otherwise hold on to while the desktop waits for them back.
            let source = plan.add("\(prefix)-src", .pipewiresrc, [("keepalive-time", .int(100)), ("always-copy", .bool(true))])
            plan.screencasts[ElementHandle(source)] = input.id
            let rate = plan.add("\(prefix)-rate", .videorate)
            let fitted = fitted(prefix, caps: mode.caps(), &plan)
            plan.chain([source, rate] + fitted + [addCaptureQueue(queue, &plan)])
        case .alsa, .tone, .syncBeeps, .soundServer, .cameraSound:
            break
        }
        plan.liveCaps.insert("\(prefix)-caps")
        return queue
    }

    /// A camera pipcam draws: a test pattern with the camera's name and the time on it.
    private func addDrawn(pattern: String, label: String, moving: Bool, mode: CaptureMode, prefix: String, queue: String,
                          _ plan: inout GraphPlan) {
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
        let caps = plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(mode.caps(format: "I420", colorimetry: GraphBuilder.drawnColorimetry)))])
        if pattern == "sync" { plan.syncSignals[ElementHandle(caps)] = .flash }
        let clock = plan.add("\(prefix)-clock", .timeoverlay, [
            ("text", .string(DrawnText.markup(label))), ("halignment", .string("left")), ("valignment", .string("top")),
            ("font-desc", .string("Sans \(max(8, mode.height / 48))")),
        ])
        plan.chain([source, caps, clock, addCaptureQueue(queue, &plan)])
    }

    /// A recorded clip replayed as a camera: mapped when it is raw Y4M, read a megabyte at a time when
    /// not, decoded otherwise; fitted to the mode, and paced by the clock unless replayed fast.
    private func addClip(_ path: String, mode: CaptureMode, prefix: String, queue: String, _ plan: inout GraphPlan) {
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
        case .decoded where ClipPictures.isMJPEG(clipAt: path):
            // MJPEG, replayed as a camera sends it: its pictures taken out of the file as they are, and
            // decoded as an MJPEG camera's are.
            let pictures = plan.add("\(prefix)-pictures", .parsebin)
            plan.markDynamic(pictures)
            reader = [plan.add("\(prefix)-src", .filesrc, [("location", .string(path)), ("blocksize", .uint(1 << 20))]), pictures,
                      addDecoder(prefix, &plan)]
        case .decoded:
            let decode = plan.add("\(prefix)-decode", .decodebin)
            plan.markDynamic(decode)
            reader = [plan.add("\(prefix)-src", .filesrc, [("location", .string(path))]), decode]
        }
        let fitted = fitted(prefix, caps: GraphCaps.size(width: mode.width, height: mode.height), &plan)
        // Paced by the clock, a clip is a live camera; replayed fast, it goes as fast as it is encoded.
        let pace = configuration.replay == .fast ? [] : [plan.add("\(prefix)-pace", .clocksync)]
        plan.chain(reader + fitted + pace + [addCaptureQueue(queue, &plan)])
    }

    /// A real camera's source: asked for its mode exactly, decoded when the mode is MJPEG. When the
    /// recording goes on through a loss, a switch before the capture queue lets a slate stand in for
    /// the camera's frames (see `SourceKeeper`). A network camera is kept whatever the policy: its
    /// drop-outs are a network's everyday.
    ///
    /// An optional camera and a network camera start without their source: the keeper opens it once the
    /// graph plays, and again while it is absent, held by another program or not answering. Its slate and
    /// its frames then differ in format, so both are made into the mode's picture after the switch; one
    /// whose modes are not known (absent when the session was made, on the network) is asked only for
    /// the rate.
    private func addDeviceCamera(_ input: DeviceInput, _ recipe: GraphPlan.SourceRecipe, mode: CaptureMode, prefix: String, queue: String,
                                 _ plan: inout GraphPlan) {
        let source = "\(prefix)-src"
        let kept = keepsDevices || input.device.isNetworkCamera
        let detached = kept && (input.isOptional || input.device.isNetworkCamera)
        let asked = detached && input.device.formats.isEmpty ? CapsBuilder(.rawVideo).set("framerate", Fraction(rate: mode.frameRate)).caps : mode.caps()
        let caps = plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(asked))])
        var chain = [caps]
        if !detached, case .element(let factory, let properties) = recipe { chain.insert(plan.add(source, factory, properties), at: 0) }
        if mode.pixelFormat == "MJPG" { chain.append(addDecoder(prefix, &plan)) }
        guard kept else {
            plan.chain(chain + [addCaptureQueue(queue, &plan)])
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
        let slate = addSlate(prefix: prefix, height: mode.height, frameRate: mode.frameRate, into: selector, "sink_1", &plan)
        plan.chain(after + [addCaptureQueue(queue, &plan)])
        plan[input: input.id].kept = .init(inputID: input.id, source: ElementHandle(source), recipe: recipe,
                                      next: ElementHandle(caps), selector: ElementHandle(selector), frames: ElementHandle(chain.last!),
                                      end: ElementHandle(queue), startsDetached: detached, placeholder: waiting.map { ElementHandle($0) },
                                      slate: slate)
    }

    /// A lost camera's slate, ready from the start (see `Slate`): its picture, caps and text come when it
    /// is put up. Until then it sends nothing; its live repeater answers the switch's latency query.
    ///
    /// The repeater is held to the camera's rate: left to itself, imagefreeze repeats at 25 pictures a
    /// second whatever the camera's rate, and a 15 fps camera's slate sent 10 a second more than the
    /// picture takes, each counted dropped: pressure read critical for as long as a camera was away.
    private func addSlate(prefix: String, height: Int, frameRate: Double, into selector: String, _ input: String,
                          _ plan: inout GraphPlan) -> GraphPlan.SlateParts {
        let rate = CapsBuilder(.rawVideo).set("framerate", Fraction(rate: frameRate)).caps
        let chain = [plan.add("\(prefix)-slate-src", .appsrc, [("is-live", .bool(true)), ("format", .string("time"))]),
                     plan.add("\(prefix)-slate-dim", .videobalance, [("brightness", .double(-0.2)), ("saturation", .double(0.4))]),
                     plan.add("\(prefix)-slate-text", .textoverlay, Slate.textProperties("", height: height)),
                     plan.add("\(prefix)-slate-repeat", .imagefreeze, [("is-live", .bool(true)), ("allow-replace", .bool(true))]),
                     plan.add("\(prefix)-slate-rate", .capsfilter, [("caps", .caps(rate))])]
        plan.liveCaps.insert(chain.last!)
        plan.chain(chain)
        plan.link(chain.last!, to: selector, input)
        return .init(source: ElementHandle(chain[0]), text: ElementHandle(chain[2]), repeater: ElementHandle(chain[3]), input: input)
    }

    /// An MJPEG camera's decoder: pipcam's own, whole, straight into I420 (the compositor's format), with
    /// the accurate inverse DCT. Decoded at a fraction of its size, a camera shown small scored 6 to 12 dB
    /// lower than decoded whole and scaled by the graph's scaler (`JPEGDecoderTests`): a camera
    /// shown small is asked for a smaller mode instead, when it has one (`FormatChooser`).
    private func addDecoder(_ prefix: String, _ plan: inout GraphPlan) -> String {
        plan.add("\(prefix)-decode", .jpegDecoder)
    }

    /// Whether the recording goes on through a device's loss: its sources are kept (`SourceKeeper`).
    var keepsDevices: Bool { configuration.deviceLoss.action == .continue }

    /// The queue every camera's captured frames wait in, which drops the oldest when the graph is behind.
    private func addCaptureQueue(_ name: String, _ plan: inout GraphPlan) -> String {
        plan.add(name, .queue, GraphBuilder.leakyQueue(buffers: GraphBuilder.cameraQueueFrames))
    }

    /// Converts and scales a picture of any format and size (a clip, a screen) into `caps`: the camera's
    /// caps filter, named as the other cameras' are. Scaled down by more than a little, videoscale's
    /// default two taps alias a camera's grain and fine lines; its multi-tap linear filter widens with the
    /// ratio (`bench/run`'s MJPEG cases: a 1080p camera into 720p, 42.5 dB against Lanczos instead of 36.9,
    /// for a twentieth of a core more).
    private func fitted(_ prefix: String, caps: Caps, _ plan: inout GraphPlan) -> [String] {
        [plan.add("\(prefix)-convert", .videoconvert), plan.add("\(prefix)-scale", .videoscale, [("method", .string("bilinear2"))]),
         plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(caps))])]
    }
}
