/// Every GStreamer element pipcam can create, with the Debian package that ships it. Plans, stills,
/// live clips and the machine's measurement take their elements from this list and nowhere else, so
/// one test can prove that `scripts/install-deps` brings every element a recording needs, and a missing
/// one is reported with the package to install instead of GStreamer's bare "no such element".
public enum ElementFactory: String, CaseIterable, Sendable {
    // Core elements (libgstcoreelements).
    case queue, tee, capsfilter, valve, clocksync, filesrc, filesink, fakesink
    case inputSelector = "input-selector"
    // Base plugins.
    case appsrc, appsink, videotestsrc, audiotestsrc, videoconvert, videoscale, videorate, compositor
    case audioconvert, audioresample, audiomixer, opusenc, decodebin, parsebin
    case opusdec
    // Good plugins.
    case v4l2src, ximagesrc, jpegdec, jpegenc, pngenc, videoflip, matroskamux
    case imagefreeze, videobalance, level, audiocheblimit, audiodynamic, volume, webrtcdsp
    // `pipcam export`: a recording's tracks read back, and written as an MP4 with AAC sound.
    case matroskademux, mp4mux, aacparse
    // A recording in parts (`--segment`).
    case splitmuxsink
    case aacEncoder = "avenc_aac"
    // Streams (`StreamOutput`): RTMP's FLV, SRT's and HLS's MPEG-TS.
    case flvmux, rtmp2sink, srtsink, mpegtsmux, hlssink2, voaacenc
    // Network cameras (`NetworkCamera`): uridecodebin picks the protocol's source and the decoder.
    case uridecodebin, rtspsrc, souphttpsrc, multipartdemux, srtsrc, tsdemux
    case h264Decoder = "avdec_h264"
    case h265Decoder = "avdec_h265"
    case alsasrc
    case x264enc
    // Bad plugins.
    case h264parse, y4mdec
    // X: the labels and clocks drawn on synthetic cameras, the preview's text line and window.
    case timeoverlay, textoverlay, ximagesink
    // Optional: pipcam uses them when present and does without otherwise.
    case xvimagesink, waylandsink, glimagesink
    case vah264enc, vah264lpenc, v4l2h264enc
    case openMAXH264Encoder = "avenc_h264_omx"
    case pulsesrc, pipewiresrc
    // pipcam's own, registered by pipcam itself: MJPEG cameras' pictures decoded straight into I420.
    case jpegDecoder = "pipcamjpegdec"

    /// Whether a recording with the defaults needs it, or pipcam only uses it when it is there
    /// (hardware encoders, faster or other windows, desktop sound servers).
    /// Where a branch begins: a camera, microphone, clip or screen. Ending a recording sends end-of-stream
    /// just downstream of each.
    public var isSource: Bool {
        switch self {
        case .v4l2src, .pipewiresrc, .ximagesrc, .videotestsrc, .audiotestsrc, .alsasrc, .pulsesrc, .filesrc, .appsrc: true
        default: false
        }
    }

    /// Built into pipcam rather than shipped by a GStreamer plugin package: `gst-launch-1.0` does not know it.
    public var isBuiltIn: Bool { self == .jpegDecoder }

    public var isRequired: Bool {
        switch self {
        case .xvimagesink, .waylandsink, .glimagesink, .vah264enc, .vah264lpenc, .v4l2h264enc, .openMAXH264Encoder, .pulsesrc, .pipewiresrc: false
        default: true
        }
    }

    /// The packages that ship `factories`, each once, in order.
    public static func packages(of factories: [ElementFactory]) -> [String] {
        factories.reduce(into: []) { packages, factory in
            if !packages.contains(factory.package) { packages.append(factory.package) }
        }
    }

    /// The Debian 12 package that ships the plugin. The package test checks it against `dpkg -S`.
    public var package: String {
        switch self {
        case .queue, .tee, .capsfilter, .valve, .clocksync, .filesrc, .filesink, .fakesink, .inputSelector: "libgstreamer1.0-0"
        case .appsrc, .appsink, .videotestsrc, .audiotestsrc, .videoconvert, .videoscale, .videorate, .compositor,
             .audioconvert, .audioresample, .audiomixer, .opusenc, .decodebin, .parsebin, .opusdec, .uridecodebin, .volume: "gstreamer1.0-plugins-base"
        case .v4l2src, .ximagesrc, .jpegdec, .jpegenc, .pngenc, .videoflip, .matroskamux, .v4l2h264enc, .pulsesrc,
             .imagefreeze, .videobalance, .level, .matroskademux, .mp4mux, .aacparse, .splitmuxsink, .flvmux, .rtspsrc, .souphttpsrc,
             .multipartdemux, .audiocheblimit, .audiodynamic: "gstreamer1.0-plugins-good"
        case .aacEncoder, .h264Decoder, .h265Decoder, .openMAXH264Encoder: "gstreamer1.0-libav"
        case .alsasrc: "gstreamer1.0-alsa"
        case .x264enc: "gstreamer1.0-plugins-ugly"
        case .h264parse, .y4mdec, .waylandsink, .vah264enc, .vah264lpenc, .rtmp2sink, .srtsink, .mpegtsmux, .hlssink2, .voaacenc,
             .srtsrc, .tsdemux, .webrtcdsp: "gstreamer1.0-plugins-bad"
        case .timeoverlay, .textoverlay, .ximagesink, .xvimagesink: "gstreamer1.0-x"
        case .glimagesink: "gstreamer1.0-gl"
        case .pipewiresrc: "gstreamer1.0-pipewire"
        // Built into pipcam; the library it decodes with.
        case .jpegDecoder: "libjpeg62-turbo"
        }
    }

    /// What an optional element adds, and what it takes beyond its package, for the line that says it is absent.
    package var benefit: (what: String, alsoNeeds: String?)? {
        switch self {
        case .xvimagesink: ("a preview window scaled by the X server", "use an X server with XVideo")
        case .waylandsink, .glimagesink: ("a preview window on Wayland", nil)
        case .vah264enc, .vah264lpenc: ("hardware H.264 encoding", "add a VA-API driver (intel-media-va-driver or mesa-va-drivers)")
        case .v4l2h264enc: ("hardware H.264 encoding on boards", "use a board with a V4L2 encoder device")
        case .openMAXH264Encoder: ("hardware H.264 encoding through OpenMAX IL", "use a board with an OpenMAX IL library")
        case .pulsesrc: ("microphones through PulseAudio", nil)
        case .pipewiresrc: ("cameras through PipeWire, and the screen on Wayland desktops", nil)
        default: nil
        }
    }
}
