import CGStreamer

/// Raw video geometry read from caps by GStreamer itself (`GstVideoInfo`): never by parsing caps strings,
/// because strides and plane offsets depend on the format's alignment rules.
public struct VideoInfo: Sendable, Equatable {
    public struct Plane: Sendable, Equatable {
        public let stride: Int
        public let offset: Int
    }

    public let format: String
    public let width: Int
    public let height: Int
    public let frameRate: Fraction
    public let planes: [Plane]
    /// Bytes in one frame.
    public let size: Int

    /// Nil unless `caps` are fixed raw video (GStreamer asserts on caps that are not fixed).
    public init?(caps: Caps) {
        guard caps.isFixed, let info = gst_video_info_new() else { return nil }
        defer { gst_video_info_free(info) }
        guard gst_video_info_from_caps(info, caps.raw) != 0 else { return nil }
        self.init(info)
    }

    init(_ info: UnsafePointer<GstVideoInfo>) {
        format = String(cString: gst_video_format_to_string(pc_video_info_format(info)))
        width = Int(info.pointee.width)
        height = Int(info.pointee.height)
        frameRate = Fraction(pc_video_info_fps_n(info), pc_video_info_fps_d(info))
        planes = (0..<pc_video_info_n_planes(info)).map {
            Plane(stride: Int(pc_video_info_plane_stride(info, $0)), offset: Int(pc_video_info_plane_offset(info, $0)))
        }
        size = Int(info.pointee.size)
    }
}

/// Raw audio format read from caps (`GstAudioInfo`).
public struct AudioInfo: Sendable, Equatable {
    public let format: String
    public let rate: Int
    public let channels: Int
    /// Bytes per frame (one sample for every channel).
    public let bytesPerFrame: Int

    /// Nil unless `caps` are fixed raw audio (GStreamer asserts on caps that are not fixed).
    public init?(caps: Caps) {
        guard caps.isFixed, let info = gst_audio_info_new() else { return nil }
        defer { gst_audio_info_free(info) }
        guard gst_audio_info_from_caps(info, caps.raw) != 0 else { return nil }
        format = info.pointee.finfo.map { String(cString: $0.pointee.name) } ?? "unknown"
        rate = Int(info.pointee.rate)
        channels = Int(info.pointee.channels)
        bytesPerFrame = Int(info.pointee.bpf)
    }
}
