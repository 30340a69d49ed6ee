import CaptureModel
import GStreamer

/// The shared program: the cameras composed into one picture, and the microphones mixed into one sound,
/// each made once (when the first camera or microphone is connected to it) and encoded once, whatever
/// outputs take it. The file links to what `addPicture` and `addMix` return; the live photos' ring and
/// the streams (`StreamPart`) take the same encoded buffers through tees.
enum ProgramStage {
    /// How late a microphone's audio may arrive before the mixer fills in silence. Sound cards deliver
    /// in bursts, and more so on a loaded machine; half a second costs nothing in a recording. A network
    /// camera's `delay` more: the sound waits for its pictures, as the picture does (`compositor`).
    static func mixerLatency(_ plan: GraphPlan) -> [(String, PropertyValue)] {
        [("latency", latency(.milliseconds(500), in: plan))]
    }

    /// A live aggregator's `latency`: `base`, and a network camera's `delay` more (`GraphPlan.placedEarlier`).
    static func latency(_ base: Duration, in plan: GraphPlan) -> PropertyValue {
        DelayLines.clockTime(base + plan.placedEarlier)
    }

    /// The picture's compositor.
    static func compositor(_ plan: inout GraphPlan) -> String {
        if let name = plan.compositor?.name { return name }
        // Waiting up to 100 ms for a late camera frame keeps a busy machine from composing pictures
        // without it (a black or frozen region); a recording does not mind the delay. A network camera's
        // pictures are placed earlier than they arrive (`delay:`, `DelayLines`): it waits that much more.
        // The picture starts with the first camera frame: composed before any camera has one, its caps
        // are renegotiated when the cameras arrive and its timestamps restart, so the encoder stamps a
        // picture twice, the muxer drops it, and the file is broken up to the next key frame.
        let compositor = plan.shared { $0.add("picture", .compositor, [
            ("background", .string("black")), ("latency", DelayLines.clockTime(compositorLatency($0))),
            ("start-time-selection", .string("first")),
        ]) }
        plan.compositor = ElementHandle(compositor)
        return compositor
    }

    /// How long the compositor waits for a late camera frame: how far behind the clock a picture is
    /// composed when the machine keeps up (`PictureDeadline`).
    static func compositorLatency(_ plan: GraphPlan) -> Duration {
        .milliseconds(100) + plan.placedEarlier
    }

    /// The sound's mixer.
    static func mixer(_ plan: inout GraphPlan) -> String {
        if let name = plan.mixerName { return name }
        plan.mixerName = plan.shared { $0.add("mix", .audiomixer, mixerLatency($0)) }
        return plan.mixerName!
    }

    /// The composed picture at the recording's size and rate, encoded once for the outputs that take it
    /// (the file, the live-photo ring, the streams); the element it leaves by, or nil when nothing encodes
    /// it (composed for photos of the picture only).
    static func addPicture(_ movie: MovieFileOutput, size: (width: Int, height: Int), rate: Double, configuration: SessionConfiguration,
                           to plan: inout GraphPlan) -> String? {
        guard let compositor = plan.compositor?.name else { return nil }
        let caps = plan.add("picture-caps", .capsfilter, [("caps", .caps(GraphCaps.picture(width: size.width, height: size.height, frameRate: rate)))])
        plan.compositeSource = ElementHandle(caps)
        let ring = configuration.photoOutput?.isLivePhotoCaptureEnabled == true
        guard movie.writesFile || ring || !configuration.streams.isEmpty else {
            plan.chain([compositor, caps, plan.addDiscard("picture-discard")])
            return nil
        }
        // A second of pictures absorbs the encoder's start and its bursts. A machine that cannot encode
        // in real time drops composed pictures here (counted, and shown in the status line) rather than
        // letting the recording fall ever further behind the cameras and microphones.
        let queue = plan.add("picture-queue", .queue, GraphBuilder.leakyQueue(buffers: max(8, Int(rate.rounded()))))
        plan.pictureQueue = ElementHandle(queue)
        let taps = (ring ? [addLivePhotoRing(rate: rate, to: &plan)] : []) + [StreamPart.addPictureTap(configuration, to: &plan)].compactMap { $0 }
        let encoded = Encoders.addVideo(movie, prefix: "picture", bitrate: movie.videoBitrate ?? configuration.preset.videoBitrate, rate: rate,
                                        keyFrameSeconds: ring || movie.segmenting != nil ? 1 : 2, alsoTo: taps, to: &plan)
        plan.link(compositor, to: caps)
        plan.fanOut(from: caps, to: [queue] + StreamPart.addOwnPictures(configuration, movie: movie, rate: rate, to: &plan), tee: "picture-caps-tee")
        plan.link(queue, to: encoded.first)
        plan.pictureEncoder = ElementHandle(encoded.first)
        return encoded.last
    }

    /// The live photos' ring: the last seconds of the encoded picture kept in memory (`LivePhotoRing`).
    private static func addLivePhotoRing(rate: Double, to plan: inout GraphPlan) -> String {
        let queue = plan.add("picture-ring-queue", .queue, GraphBuilder.leakyQueue(buffers: Int(rate.rounded()) * 2))
        let sink = plan.add("picture-ring", .appsink, [("sync", .bool(false)), ("max-buffers", .uint(8)), ("drop", .bool(true))])
        plan.livePhotoSink = ElementHandle(sink)
        plan.link(queue, to: sink)
        return queue
    }

    /// The mixed sound in stereo, encoded once for the file; the element it leaves by, or nil without a
    /// microphone or a file. Streams take an AAC encode of it, made once.
    static func addMix(_ movie: MovieFileOutput, configuration: SessionConfiguration, to plan: inout GraphPlan) -> String? {
        guard let mixer = plan.mixerName else { return nil }
        let caps = plan.add("mix-caps", .capsfilter, [("caps", .caps(GraphCaps.sound(channels: 2)))])
        plan.link(mixer, to: caps)
        let aac = StreamPart.addAAC(configuration, bitrate: max(128, movie.audioBitrate), to: &plan)
        guard movie.writesFile else {
            plan.link(caps, to: aac ?? plan.addDiscard("mix-discard"))
            return nil
        }
        let encoded = Encoders.addSound(movie, prefix: "mix", after: aac == nil ? caps : nil, to: &plan)
        if let aac { plan.fanOut(from: caps, to: [encoded.first, aac], tee: "mix-caps-tee") }
        return encoded.last
    }

    /// Where a camera goes in the picture.
    static func padProperties(_ region: Region) -> [(String, PropertyValue)] {
        [("xpos", .int(Int64(region.x))), ("ypos", .int(Int64(region.y))), ("width", .int(Int64(region.width))),
         ("height", .int(Int64(region.height))), ("zorder", .uint(UInt64(region.zOrder))),
         ("sizing-policy", .string("keep-aspect-ratio"))]
    }
}
