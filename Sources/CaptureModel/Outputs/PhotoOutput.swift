import Foundation

/// Stills from the session's cameras and of the composed picture while they run
/// (`AVCapturePhotoOutput`). Cameras connected to it are captured at their full size, so each still
/// is the camera's own picture, not the inset; stills are taken from the running graph without
/// disturbing the recording, and encoded apart from it.
public struct PhotoOutput: Sendable {
    public var id: String
    /// Keeps the last seconds of the encoded picture in memory, so a photo can come with a clip from
    /// before the shutter (`isLivePhotoCaptureEnabled`). It changes the graph, so it is set before starting.
    public var isLivePhotoCaptureEnabled: Bool

    public init(id: String = "photo", isLivePhotoCaptureEnabled: Bool = false) {
        self.id = id
        self.isLivePhotoCaptureEnabled = isLivePhotoCaptureEnabled
    }
}

/// What one capture takes (`AVCapturePhotoSettings`).
public struct PhotoSettings: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case jpeg, png
        package var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    public enum Timing: String, Sendable, CaseIterable {
        /// Every camera's next frame at once.
        case simultaneous
        /// Back camera first, then front, then the others, each once the previous still is encoded.
        case sequential
    }

    /// N stills per camera, stepping a picture control across its range.
    public struct Bracket: Sendable {
        public enum Control: String, Sendable, CaseIterable {
            /// Exposure where the camera has it, else brightness, else gain.
            case automatic = "auto", exposure, brightness, gain
        }
        public var count: Int
        public var control: Control
        public init(count: Int, control: Control = .automatic) {
            self.count = count
            self.control = control
        }
    }

    /// Where the files go.
    public var directory: String
    public var format: Format = .jpeg
    /// JPEG quality, 1…100.
    public var quality = 90
    /// Width of each thumbnail's longer side.
    public var thumbnailSize = 160
    public var timing: Timing = .simultaneous
    public var includesComposite = true
    public var bracket: Bracket?
    /// A clip from 1.5 s before to 1.5 s after the shutter, beside the photo (needs live photo capture).
    public var livePhoto = false
    /// Unique per capture; names the files and the sidecar.
    public let captureID: String

    public init(directory: String) {
        self.directory = directory
        let stamp = Self.stampFormatter.string(from: Date())
        captureID = "photo-\(stamp)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    private static let stampFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter
    }()
}

/// One encoded still, with its thumbnail.
public struct CapturedStill: Sendable, Codable {
    /// The camera's id, or "composite" for the composed picture.
    public let source: String
    public let file: String
    public let thumbnail: String
    public let width: Int
    public let height: Int
    public let pixelFormat: String
    /// Running time of the frame on the session's clock (the recording's time scale), in seconds.
    public let time: Double
    /// Control values at the time of the still (V4L2 cameras), or what a synthetic camera shows.
    public let controls: [String: String]
    /// For bracketing: the control stepped and its value for this still.
    public var bracket: [String: Int]?

    package init(source: String, file: String, thumbnail: String, width: Int, height: Int, pixelFormat: String, time: Double,
                 controls: [String: String], bracket: [String: Int]? = nil) {
        self.source = source
        self.file = file
        self.thumbnail = thumbnail
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.time = time
        self.controls = controls
        self.bracket = bracket
    }
}

/// What a capture produced: its stills, an optional live clip, and the sidecar describing them.
public struct PhotoCaptureResult: Sendable, Codable {
    public let id: String
    public let takenAt: String
    public let timing: String
    public let format: String
    public var stills: [CapturedStill]
    public var liveClip: String?
    public var sidecar: String

    package init(id: String, takenAt: String, timing: String, format: String, stills: [CapturedStill], liveClip: String?, sidecar: String) {
        self.id = id
        self.takenAt = takenAt
        self.timing = timing
        self.format = format
        self.stills = stills
        self.liveClip = liveClip
        self.sidecar = sidecar
    }
}

/// The lifecycle of one capture, in order, as AVCapturePhotoCaptureDelegate reports it.
public enum PhotoCaptureEvent: Sendable {
    case willBeginCapture(id: String)
    /// The shutter: frames are being taken from the cameras now.
    case willCapturePhoto(id: String)
    case didFinishProcessingPhoto(CapturedStill)
    case didFinishCapture(PhotoCaptureResult)
}

extension PhotoOutput: TakesConnections {
    /// A photo is of one camera: each connection brings one.
    package func reasonCannotTake(_ connection: Connection, besides taken: [Connection]) -> String? {
        if connection.mediaType != .video || connection.inputPorts.count > 1 { return "the photo output takes one camera per connection" }
        return nil
    }
}
