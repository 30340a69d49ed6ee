import CGStreamer
import CPipcamGst

/// A buffer with its caps, as an appsink hands it over. The data is mapped in place, never copied.
public final class Sample: @unchecked Sendable {
    let raw: OpaquePointer

    init(adopting raw: OpaquePointer) { self.raw = raw }
    deinit { pc_sample_unref(raw) }

    private var buffer: UnsafeMutablePointer<GstBuffer>? { gst_sample_get_buffer(raw) }

    public var caps: Caps? { gst_sample_get_caps(raw).map { Caps(retaining: $0) } }

    /// The same picture (its data shared) with its caps' interlace-mode written out when they leave it
    /// unsaid: an element downstream that has settled on the field refuses caps that leave it open, though
    /// both mean a progressive picture.
    public var withInterlaceModeStated: Sample { Sample(adopting: pc_sample_interlace_stated(raw)) }

    /// Presentation time on the pipeline's running-time scale.
    public var presentationTime: Duration? { buffer.flatMap { .clockTime(pc_buffer_pts($0)) } }

    /// Presentation time as running time, from the segment the sample carries: comparable across branches
    /// even after an encoder that shifts its raw timestamps.
    public var runningTime: Duration? { .clockTime(pc_sample_running_time(raw)) }

    /// Whether the buffer can be decoded on its own (a key frame, or any raw frame).
    public var isKeyFrame: Bool { buffer.map { pc_buffer_is_delta($0) == 0 } ?? false }

    public var duration: Duration? { buffer.flatMap { .clockTime(pc_buffer_duration($0)) } }

    public var byteCount: Int { buffer.map { Int(gst_buffer_get_size($0)) } ?? 0 }

    public var videoInfo: VideoInfo? { caps?.videoInfo }

    /// Reads the buffer's bytes in place.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let buffer else { throw GStreamerError.mapFailed("a sample without a buffer") }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { throw GStreamerError.mapFailed("buffer") }
        defer { gst_buffer_unmap(buffer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Reads a raw video frame in place, with planes and strides from its GstVideoInfo.
    public func withVideoFrame<R>(_ body: (VideoFrame) throws -> R) throws -> R {
        guard let buffer, let caps = gst_sample_get_caps(raw), let info = gst_video_info_new() else {
            throw GStreamerError.mapFailed("a video frame without caps")
        }
        defer { gst_video_info_free(info) }
        guard gst_video_info_from_caps(info, caps) != 0 else { throw GStreamerError.mapFailed("a frame that is not raw video") }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, info, buffer, GST_MAP_READ) != 0 else { throw GStreamerError.mapFailed("video frame") }
        defer { gst_video_frame_unmap(&frame) }
        return try withUnsafeMutablePointer(to: &frame) { try body(VideoFrame($0)) }
    }
}

/// A mapped raw video frame; valid only inside `Sample.withVideoFrame`.
public struct VideoFrame {
    private let frame: UnsafeMutablePointer<GstVideoFrame>
    public let info: VideoInfo

    init(_ frame: UnsafeMutablePointer<GstVideoFrame>) {
        self.frame = frame
        self.info = VideoInfo(&frame.pointee.info)
    }

    public var planeCount: Int { info.planes.count }

    public func stride(plane: Int) -> Int { Int(pc_video_frame_plane_stride(frame, guint(plane))) }

    /// Width and height of the plane's component, in samples (chroma planes are smaller in 4:2:0).
    public func componentWidth(plane: Int) -> Int { Int(pc_video_frame_comp_width(frame, guint(plane))) }
    public func componentHeight(plane: Int) -> Int { Int(pc_video_frame_comp_height(frame, guint(plane))) }

    /// The bytes of one plane: `stride(plane:)` bytes per row.
    public func plane(_ index: Int) -> UnsafeRawBufferPointer {
        let start = pc_video_frame_plane_data(frame, guint(index))
        let rows = Int(pc_video_frame_comp_height(frame, guint(index)))
        return UnsafeRawBufferPointer(start: start, count: rows * stride(plane: index))
    }

    /// The pixel's bytes in a packed format (RGB, RGBx, BGRx, …) at (x, y) of plane 0.
    public func packedPixel(x: Int, y: Int) -> [UInt8] {
        let bytesPerPixel = Int(frame.pointee.info.finfo.pointee.pixel_stride.0)
        let offset = y * stride(plane: 0) + x * bytesPerPixel
        return Array(plane(0)[offset..<offset + bytesPerPixel])
    }
}
