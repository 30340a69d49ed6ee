import CGStreamer
import CPipcamGst

/// A bus message, copied into Swift values on the bus thread so it can travel anywhere.
public struct Message: Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case error(message: String, debug: String?)
        case warning(message: String, debug: String?)
        case info(message: String, debug: String?)
        case eos
        case stateChanged(old: State, new: State, pending: State)
        /// A frame was dropped or processed late; counts are per element.
        case qos(live: Bool, runningTime: Duration?, processed: UInt64, dropped: UInt64)
        case element(Structure)
        case application(Structure)
        case deviceAdded(Device)
        case deviceRemoved(Device)
        case streamStart
        case asyncDone
        case latency
        case clockLost
        case other(String)
    }

    public let kind: Kind
    /// GLib's domain and code of an error, warning or info: what went wrong, in words no translation changes.
    public let errorCode: ErrorCode?
    /// What the element attached to an error, warning or info beyond its text: an HTTP or RTSP source's
    /// status ("http-status-code", "rtsp-status-code"), a source's flow result.
    public let errorDetails: Structure?
    /// Name of the element (or pad, device monitor…) that posted the message.
    public let sourceName: String?
    /// Its full path, e.g. "/GstPipeline:session/GstV4l2Src:camera0".
    public let sourcePath: String?
    public let sequenceNumber: UInt32
    /// The object that posted it, and the bins it was in, nearest first.
    private let source: ObjectIdentity?
    private let sourceBins: [ObjectIdentity]

    public var description: String {
        "\(sourcePath ?? "?"): \(kind)"
    }

    /// Why a source stopped streaming, when that is the error ("not-negotiated", "error"): the flow
    /// result it attached to "Internal data stream error", by GStreamer's name for it.
    public var stoppedFlow: String? {
        errorDetails?.int("flow-return").map { String(cString: gst_flow_get_name(GstFlowReturn(rawValue: Int32($0)))) }
    }

    public var isError: Bool {
        if case .error = kind { return true }
        return false
    }

    init(_ raw: UnsafeMutablePointer<GstMessage>) {
        sequenceNumber = pc_message_seqnum(raw)
        if let source = pc_message_src(raw) {
            sourceName = takeString(gst_object_get_name(source))
            self.source = ObjectIdentity(source)
            // Where the poster was when it posted, as the bus noted then (it may have been taken out since),
            // or where it is now, for a kind of message the bus does not note.
            sourcePath = takeString(pc_message_poster_path(raw))
            sourceBins = Message.identities(of: pc_message_poster_bins(raw))
        } else {
            sourceName = nil
            sourcePath = nil
            source = nil
            sourceBins = []
        }
        (kind, errorCode, errorDetails) = Message.parse(raw)
    }

    /// Whether `object` posted the message.
    public func isFrom(_ object: Object) -> Bool { source == object.identity }

    /// Whether the message was posted by something inside `bin`, however deep.
    public func isFrom(within bin: Object) -> Bool { sourceBins.contains(bin.identity) }

    /// The identities of the objects in `array`, in order; the array is released.
    private static func identities(of array: UnsafeMutablePointer<GPtrArray>) -> [ObjectIdentity] {
        defer { g_ptr_array_unref(array) }
        return (0..<Int(array.pointee.len)).compactMap { index in
            array.pointee.pdata[index].map { ObjectIdentity($0.assumingMemoryBound(to: GstObject.self)) }
        }
    }

    /// The message's kind and, for an error, warning or info, its GLib domain and code, read from one
    /// parse of the message's GError, and the details attached.
    private static func parse(_ raw: UnsafeMutablePointer<GstMessage>) -> (Kind, ErrorCode?, Structure?) {
        let type = pc_message_type(raw)
        guard [GST_MESSAGE_ERROR, GST_MESSAGE_WARNING, GST_MESSAGE_INFO].contains(type) else { return (kind(of: raw), nil, nil) }
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        // Owned by the message, copied into Swift values before it goes.
        var attached: UnsafePointer<GstStructure>?
        switch type {
        case GST_MESSAGE_ERROR:
            gst_message_parse_error(raw, &error, &debug)
            gst_message_parse_error_details(raw, &attached)
        case GST_MESSAGE_WARNING:
            gst_message_parse_warning(raw, &error, &debug)
            gst_message_parse_warning_details(raw, &attached)
        default:
            gst_message_parse_info(raw, &error, &debug)
            gst_message_parse_info_details(raw, &attached)
        }
        defer { if let error { g_error_free(error) } }
        let text = error.map { String(cString: $0.pointee.message) } ?? "unknown"
        let code = error.map { ErrorCode(domain: g_quark_to_string($0.pointee.domain).map { String(cString: $0) } ?? "", code: Int($0.pointee.code)) }
        let details = takeString(debug)
        let structure = attached.map(Structure.init)
        switch type {
        case GST_MESSAGE_ERROR: return (.error(message: text, debug: details), code, structure)
        case GST_MESSAGE_WARNING: return (.warning(message: text, debug: details), code, structure)
        default: return (.info(message: text, debug: details), code, structure)
        }
    }

    /// The kind of every other message.
    private static func kind(of raw: UnsafeMutablePointer<GstMessage>) -> Kind {
        let type = pc_message_type(raw)
        switch type {
        case GST_MESSAGE_EOS:
            return .eos
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(raw, &old, &new, &pending)
            return .stateChanged(old: State(old), new: State(new), pending: State(pending))
        case GST_MESSAGE_QOS:
            var live: gboolean = 0
            var runningTime: guint64 = 0, streamTime: guint64 = 0, timestamp: guint64 = 0, duration: guint64 = 0
            gst_message_parse_qos(raw, &live, &runningTime, &streamTime, &timestamp, &duration)
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0, dropped: guint64 = 0
            gst_message_parse_qos_stats(raw, &format, &processed, &dropped)
            return .qos(live: live != 0, runningTime: .clockTime(runningTime), processed: UInt64(processed), dropped: UInt64(dropped))
        case GST_MESSAGE_ELEMENT, GST_MESSAGE_APPLICATION:
            guard let structure = gst_message_get_structure(raw) else { return .other("element") }
            return type == GST_MESSAGE_ELEMENT ? .element(Structure(structure)) : .application(Structure(structure))
        case GST_MESSAGE_DEVICE_ADDED, GST_MESSAGE_DEVICE_REMOVED:
            var device: UnsafeMutablePointer<GstDevice>?
            if type == GST_MESSAGE_DEVICE_ADDED { gst_message_parse_device_added(raw, &device) }
            else { gst_message_parse_device_removed(raw, &device) }
            guard let device else { return .other("device") }
            let wrapped = Device(device, .adopt)
            return type == GST_MESSAGE_DEVICE_ADDED ? .deviceAdded(wrapped) : .deviceRemoved(wrapped)
        case GST_MESSAGE_STREAM_START: return .streamStart
        case GST_MESSAGE_ASYNC_DONE: return .asyncDone
        case GST_MESSAGE_LATENCY: return .latency
        case GST_MESSAGE_CLOCK_LOST: return .clockLost
        default:
            return .other(String(cString: gst_message_type_get_name(type)))
        }
    }
}

/// A GLib error's domain (its quark's name, e.g. "gst-resource-error-quark") and code within it.
public struct ErrorCode: Sendable, Hashable {
    public let domain: String
    public let code: Int

    public init(domain: String, code: Int) {
        self.domain = domain
        self.code = code
    }

    /// The domains of what a resource (a file, a device, a server) did, and of what a stream's data did.
    public static let resourceDomain = "gst-resource-error-quark", streamDomain = "gst-stream-error-quark"
    /// A resource is gone; a video sink says so when its window was closed.
    public static let resourceNotFound = ErrorCode(domain: resourceDomain, code: Int(GST_RESOURCE_ERROR_NOT_FOUND.rawValue))
    /// A server refused the user and password (RTMP's authorization).
    public static let notAuthorized = ErrorCode(domain: resourceDomain, code: Int(GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue))
    /// The disk being written to is full.
    public static let noSpaceLeft = ErrorCode(domain: resourceDomain, code: Int(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue))
    /// No element can decode what a source sends (decodebin, when nothing it found is playable).
    public static let missingPlugin = ErrorCode(domain: "gst-core-error-quark", code: Int(GST_CORE_ERROR_MISSING_PLUGIN.rawValue))
    /// A demuxer found no stream of its kind (multipartdemux: a body that is not multipart).
    public static let cannotDemux = ErrorCode(domain: streamDomain, code: Int(GST_STREAM_ERROR_DEMUX.rawValue))
}
