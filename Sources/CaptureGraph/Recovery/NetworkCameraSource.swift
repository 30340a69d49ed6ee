import CaptureModel
import GStreamer

/// A network camera's source: one element with a "src" pad from the start, as a V4L2 camera's source
/// is, so that the keeper takes it out and makes it again the same way (`SourceKeeper`).
///
/// Inside, uridecodebin picks the protocol's source (rtspsrc, srtsrc) and the decoder for what the camera
/// sends (H.264, H.265, MJPEG); HTTP MJPEG is read and decoded directly. The decoded pictures leave at
/// the camera's rate. The camera's sound, when a microphone takes it, leaves by a second pad, "sound",
/// as the stream carries it (`CameraSound`); else it is discarded, and nothing waits on it.
enum NetworkCameraSource {
    /// What leaves the source (the launch line writes the same): I420, at `frameRate` (nil: the
    /// camera's own).
    static func pictures(frameRate: Double?) -> Caps {
        CapsBuilder(.rawVideo).set("format", "I420").set("framerate", frameRate.map { Fraction(rate: $0) }).caps
    }

    /// `frameRate` nil leaves the pictures at the camera's own rate. `withSound` gives the bin its "sound"
    /// pad, from the start: the sound comes only once the stream shows it has some (or never).
    static func make(_ camera: NetworkCamera, frameRate: Double?, withSound: Bool = false, name: String) throws -> Bin {
        let bin = try Bin(name: name)
        // A decoder finishes its start only once the stream shows what it carries (or never, when it
        // carries nothing playable): left to the pipeline, that wait would pause the whole recording.
        try bin.set("async-handling", true)
        // Whatever the camera's encoder chose (4:4:4, 10 bits), its pictures leave in I420, as every other
        // camera's: its slate is drawn from them, and the compositor takes them without a second conversion.
        let convert = try ElementFactory.videoconvert.make(name: "\(name)-convert")
        let rate = try ElementFactory.videorate.make(name: "\(name)-rate")
        // A source made again (the camera back) starts its stream seconds into the recording: videorate
        // would fill those seconds with copies of its first picture, a burst the capture queue then drops,
        // counted as the camera's drops and the machine's pressure. The slate stood in for them already.
        try rate.set("skip-to-first", true)
        let caps = try ElementFactory.capsfilter.make(name: "\(name)-rate-caps")
        try caps.set("caps", pictures(frameRate: frameRate))
        try bin.add([convert, rate, caps])
        try convert.link(rate)
        try rate.link(caps)
        try bin.exposePad(try caps.staticPad("src"), as: "src")
        let input = try convert.staticPad("sink")
        let soundInput = withSound ? try addSoundPad(to: bin, name: name) : nil
        if camera.kind == .http {
            try addMJPEG(camera, to: bin, name: name, before: convert)
            return bin
        }
        let decode = try ElementFactory.uridecodebin.make(name: "\(name)-decode")
        try decode.set("uri", camera.address)
        try bin.add([decode])
        decode.onSourceSetup { source in configure(source, for: camera) }
        decode.onPadAdded { [weak bin] pad in
            let kind = pad.queryCaps().structures.first?.name
            if !input.isLinked, kind == "video/x-raw" {
                try? pad.link(to: input)
            } else if let soundInput, !soundInput.isLinked, kind == "audio/x-raw" {
                try? pad.link(to: soundInput)
            } else if let bin {
                discard(pad, in: bin)
            }
        }
        return bin
    }

    /// The bin's "sound" pad, whatever the stream's sound turns out to be: returns where it goes in.
    /// The camera's delay places its sound earlier as it does its pictures (`DelayLines`), so the two
    /// stay as the camera sent them (measured with the sync camera served: with its pictures alone
    /// placed earlier by its 87 ms, its beeps were 64 ms after its flashes and 91 ms after pipcam's own).
    private static func addSoundPad(to bin: Bin, name: String) throws -> Pad {
        let sound = try ElementFactory.audioconvert.make(name: "\(name)-sound")
        try bin.add([sound])
        try bin.exposePad(try sound.staticPad("src"), as: "sound")
        return try sound.staticPad("sink")
    }

    /// HTTP MJPEG, read as it is: uridecodebin would hold a live stream of pictures in its download
    /// buffer, and its type finding waits for bytes a slow camera is slow to send.
    private static func addMJPEG(_ camera: NetworkCamera, to bin: Bin, name: String, before next: Element) throws {
        let source = try ElementFactory.souphttpsrc.make(name: "\(name)-http")
        try source.set("location", camera.address)
        configure(source, for: camera)
        let parts = try ElementFactory.multipartdemux.make(name: "\(name)-parts")
        let decode = try ElementFactory.jpegdec.make(name: "\(name)-jpeg")
        try bin.add([source, parts, decode])
        try source.link(parts)
        try decode.link(next)
        let input = try decode.staticPad("sink")
        parts.onPadAdded { pad in
            if !input.isLinked { try? pad.link(to: input) }
        }
    }

    /// How long after an attempt to call a camera again: a second for the first three, then twice as
    /// long each time up to 8 s, so that a camera down for the day is not called ten times a second by a
    /// room of recorders.
    static func retryInterval(afterAttempts attempts: Int) -> Duration {
        .seconds(1 << min(3, max(0, attempts - 3)))
    }

    /// A stream the recording does not take (the camera's sound, a second picture) goes to a sink that
    /// takes anything at once: left unlinked, it could stop the source that carries both. The recording's
    /// end does not wait for it: counted as a sink, it held the stop of a recording whose camera sent
    /// sound and had been called again (the stop timed out).
    private static func discard(_ pad: Pad, in bin: Bin) {
        guard let sink = try? ElementFactory.fakesink.make() else { return }
        try? sink.set("sync", false)
        try? sink.set("async", false)
        sink.leaveOutOfSinks()
        guard (try? bin.add([sink])) != nil else { return }
        try? pad.link(to: try sink.staticPad("sink"))
        _ = sink.syncStateWithParent()
    }

    /// What the URI cannot say: the password, the latency, the transport; and timeouts short enough
    /// that a camera that does not answer is known lost in seconds, not after the library's minutes.
    private static func configure(_ source: Element, for camera: NetworkCamera) {
        let latency = String(Int(camera.latency.seconds * 1000))
        switch source.factoryName {
        case ElementFactory.rtspsrc.rawValue:
            try? source.set("latency", fromString: latency)
            try? source.set("drop-on-latency", true)
            // Pictures keep the camera's own spacing, the jitter buffer following its clock through a long
            // recording. Left to choose (auto), it settled one picture later after some 6 s.
            try? source.set("buffer-mode", fromString: "slave")
            try? source.set("tcp-timeout", fromString: "5000000")
            if camera.transport != .automatic { try? source.set("protocols", fromString: camera.transport.rawValue) }
            setCredentials(of: source, camera)
        case ElementFactory.souphttpsrc.rawValue:
            // Pictures are stamped with the recording's clock as they arrive: MJPEG carries no times.
            try? source.set("is-live", true)
            try? source.set("do-timestamp", true)
            try? source.set("timeout", fromString: "5")
            setCredentials(of: source, camera)
        case ElementFactory.srtsrc.rawValue:
            try? source.set("latency", fromString: latency)
            try? source.set("mode", fromString: camera.isSRTListener ? "listener" : "caller")
        default:
            break
        }
    }

    private static func setCredentials(of source: Element, _ camera: NetworkCamera) {
        if let user = camera.user { try? source.set("user-id", user) }
        if let password = camera.password { try? source.set("user-pw", password) }
    }
}
