import Foundation

/// Records the composed picture and the microphones to a Matroska file
/// (`AVCaptureMovieFileOutput`): H.264 video, Opus audio.
public struct MovieFileOutput: Sendable, Hashable {
    public enum Encoder: String, Sendable, Codable, CaseIterable {
        /// x264, tuned for live capture.
        case software
        /// A hardware encoder (vah264enc, v4l2h264enc); fails validation when none is installed.
        case hardware
        /// Hardware when present, else software.
        case automatic
    }

    /// Which audio tracks the file carries.
    public enum AudioTracks: String, Sendable, Codable, CaseIterable {
        /// The mix first (what players play), then each microphone on its own track.
        case mixedAndSeparate = "mixed-and-separate"
        /// Only the mix.
        case mixed
        /// One track that carries the microphone paired with the main camera, switching on swap.
        case followMainCamera = "follow-main-camera"
    }

    public var id: String
    public var path: String
    public var encoder: Encoder
    /// Video bitrate in kbit/s; the preset's when nil.
    public var videoBitrate: Int?
    /// Opus bitrate per track in kbit/s.
    public var audioBitrate: Int
    public var audioTracks: AudioTracks
    /// Each camera also on its own video track, at the size it was captured, for editing later.
    public var isolatedCameraTracks: Bool
    /// x264's speed preset: slower presets give a smaller file at the same quality for more CPU.
    public var encoderSpeed: EncoderSpeed = .veryfast
    /// False composes the picture, for photos of it, without encoding or writing anything: no file, no
    /// sound, no encoder's work.
    public var writesFile = true
    /// Parts instead of one file (see `Segmenting`); nil for one file.
    public var segmenting: Segmenting?
    /// What each finished file (each part, and the last) is handed to, to send it off the machine.
    public var upload: UploadCommand?

    /// Every file of one recording after its first is named after it: "talk.mkv" → "talk-2.mkv".
    public static func numberedPath(_ path: String, _ number: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(base)-\(number).\(url.pathExtension)").path
    }

    public enum EncoderSpeed: String, Sendable, Codable, CaseIterable {
        case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower
    }

    public init(id: String = "movie", path: String, encoder: Encoder = .software, videoBitrate: Int? = nil,
                audioBitrate: Int = 96, audioTracks: AudioTracks = .mixedAndSeparate, isolatedCameraTracks: Bool = false) {
        self.id = id
        self.path = path
        self.encoder = encoder
        self.videoBitrate = videoBitrate
        self.audioBitrate = audioBitrate
        self.audioTracks = audioTracks
        self.isolatedCameraTracks = isolatedCameraTracks
    }
}

extension SessionConfiguration {
    /// The movie output when it writes a file: what a disk fills, an upload sends and a repair mends.
    /// `pipcam stream` and photos keep one that writes none, for its picture and sound.
    public var recordedFile: MovieFileOutput? { movieFile.flatMap { $0.writesFile ? $0 : nil } }
}

extension MovieFileOutput: TakesConnections {
    /// The file's picture composes two cameras at most (any number of microphones are mixed).
    package func reasonCannotTake(_ connection: Connection, besides taken: [Connection]) -> String? {
        if connection.mediaType == .video && taken.filter({ $0.mediaType == .video }).count >= 2 { return "the movie file already composes two cameras" }
        return nil
    }
}
