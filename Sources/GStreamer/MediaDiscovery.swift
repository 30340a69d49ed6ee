import CGStreamer
import Foundation

/// What GStreamer finds in a media file when it opens it and decodes its start (GstDiscoverer), within a
/// time limit: whether a clip will play before a recording counts on it.
public enum MediaDiscovery {
    public enum Outcome: Sendable, Equatable {
        /// A picture of this size, of this media type as its caps name it ("image/jpeg", "video/x-h264"),
        /// `framed` when its demuxer hands over one whole picture at a time (caps with parsed=true).
        case video(width: Int, height: Int, mediaType: String, framed: Bool)
        /// The file plays, but holds no picture (sound only).
        case noVideo
        /// GStreamer cannot play it, in its words ("This appears to be a text file").
        case unplayable(String)
        /// Still undecided after the time limit.
        case timedOut
    }

    public static func inspect(path: String, timeout: Duration) -> Outcome {
        Gst.ensureInitialized()
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst_discoverer_new(timeout.nanoseconds, &error) else {
            defer { g_clear_error(&error) }
            return .unplayable(error.map { String(cString: $0.pointee.message) } ?? "no discoverer")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(discoverer)) }
        guard let uri = gst_filename_to_uri(path, &error) else {
            defer { g_clear_error(&error) }
            return .unplayable(error.map { String(cString: $0.pointee.message) } ?? "not a path")
        }
        defer { g_free(uri) }
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        defer {
            if let info { g_object_unref(UnsafeMutableRawPointer(info)) }
            g_clear_error(&error)
        }
        guard let info else { return .unplayable(error.map { String(cString: $0.pointee.message) } ?? "cannot be opened") }
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK:
            break
        case GST_DISCOVERER_TIMEOUT:
            return .timedOut
        case GST_DISCOVERER_MISSING_PLUGINS:
            return .unplayable("no decoder is installed for it" + (mediaType(of: info).map { " (\($0))" } ?? ""))
        default:
            return .unplayable(error.map { String(cString: $0.pointee.message) } ?? "cannot be played")
        }
        let streams = gst_discoverer_info_get_video_streams(info)
        defer { gst_discoverer_stream_info_list_free(streams) }
        guard let first = streams?.pointee.data else { return .noVideo }
        let video = OpaquePointer(first)
        var mediaType = "", framed = false
        if let caps = gst_discoverer_stream_info_get_caps(video), let structure = Caps(adopting: caps).structures.first {
            mediaType = structure.name
            if case .value(.bool(true))? = structure["parsed"] { framed = true }
        }
        return .video(width: Int(gst_discoverer_video_info_get_width(video)), height: Int(gst_discoverer_video_info_get_height(video)),
                      mediaType: mediaType, framed: framed)
    }

    /// The media type GStreamer took the file for ("application/x-executable"), from what it says is
    /// missing to play it.
    private static func mediaType(of info: OpaquePointer) -> String? {
        guard let details = gst_discoverer_info_get_missing_elements_installer_details(info), let first = details.pointee else { return nil }
        // "gstreamer|1.0|program|application/x-executable decoder|decoder-application/x-executable"
        let fields = String(cString: first).split(separator: "|")
        guard fields.count >= 4 else { return nil }
        return fields[3].replacingOccurrences(of: " decoder", with: "")
    }
}
