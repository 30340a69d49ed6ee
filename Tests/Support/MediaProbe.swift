import Foundation

/// What ffprobe says about a recording.
public struct MediaProbe: Sendable {
    public struct Stream: Sendable {
        public let index: Int
        public let codecType: String
        public let codecName: String
        public let width: Int?
        public let height: Int?
        public let frameRate: String?
        public let channels: Int?
        public let sampleRate: Int?
    }

    public let streams: [Stream]
    public let duration: Double?
    /// When the file's first track begins: the sound at 0, or the picture once every camera has a frame.
    public let startTime: Double?

    public var videoStreams: [Stream] { streams.filter { $0.codecType == "video" } }
    public var audioStreams: [Stream] { streams.filter { $0.codecType == "audio" } }

    public init(path: String) throws {
        let result = try Command.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
            throw ProbeError("ffprobe could not read \(path): \(result.error)")
        }
        streams = (json["streams"] as? [[String: Any]] ?? []).map { stream in
            Stream(index: stream["index"] as? Int ?? -1, codecType: stream["codec_type"] as? String ?? "",
                   codecName: stream["codec_name"] as? String ?? "", width: stream["width"] as? Int, height: stream["height"] as? Int,
                   frameRate: stream["r_frame_rate"] as? String, channels: stream["channels"] as? Int,
                   sampleRate: (stream["sample_rate"] as? String).flatMap(Int.init))
        }
        duration = ((json["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init)
        startTime = ((json["format"] as? [String: Any])?["start_time"] as? String).flatMap(Double.init)
    }

    /// What ffmpeg, ffprobe and mkvmerge say about a file besides its contents: empty for a file every
    /// reader accepts.
    public static func readerWarnings(path: String) throws -> String {
        var said = try Command.run(["ffmpeg", "-v", "warning", "-xerror", "-i", path, "-map", "0", "-f", "null", "-"]).error
        said += try Command.run(["ffprobe", "-v", "warning", path]).error
        let mkvmerge = try Command.run(["mkvmerge", "--identify", path])
        if mkvmerge.status != 0 || mkvmerge.output.contains("Warning") { said += mkvmerge.output + mkvmerge.error }
        return said
    }

    /// What ffmpeg says while copying every track of `path` into an MP4, as an editor's import would:
    /// empty for a file every reader accepts. Of every Opus track copied without decoding, ffmpeg says
    /// "codec frame size is not set" (of its own Opus recordings too): that line is not the file's.
    public static func remuxWarnings(path: String) throws -> String {
        // Beside the scratch folders, not the recording: its disk may be full.
        let copy = NSTemporaryDirectory() + "pipcam-remux-\(UUID().uuidString.prefix(8)).mp4"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let result = try Command.run(["ffmpeg", "-v", "warning", "-xerror", "-y", "-i", path, "-map", "0", "-c", "copy", copy])
        let said = result.error.split(separator: "\n").map(String.init).filter { !$0.hasSuffix("codec frame size is not set") }
        return (result.status == 0 ? said : said + ["ffmpeg exited with \(result.status)"]).joined(separator: "\n")
    }

    /// Decodes every stream in full; returns what the demuxer and decoders complained about (empty when
    /// clean). Complaints of the `null` output itself ("[null @ …]") are left out: they are about the
    /// timestamps ffmpeg gives it after rounding frames to a nominal rate, not about the file.
    public static func decodeErrors(path: String) throws -> String {
        let result = try Command.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0", "-f", "null", "-"])
        let complaints = result.error.split(separator: "\n").filter { !$0.hasPrefix("[null @") }.joined(separator: "\n")
        return result.status == 0 ? complaints : "exit \(result.status): \(complaints)"
    }

    /// Presentation times of every frame of a video stream, in seconds, in order.
    public static func videoFrameTimes(path: String, stream: Int = 0) throws -> [Double] {
        let result = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:\(stream)", "-show_entries", "frame=pts_time",
                                      "-of", "csv=p=0", path])
        return result.output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    /// PSNR in dB (average of the planes) of a video against a reference, both cropped to the same
    /// `width`×`height` region at the top left, pictures paired in order (infinite when they are the same);
    /// nil when ffmpeg reports none.
    public static func psnr(path: String, reference: String, width: Int, height: Int) throws -> Double? {
        let crop = "crop=\(width):\(height):0:0"
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "info", "-i", path, "-i", reference,
                                      "-lavfi", "[0:v]\(crop)[a];[1:v]\(crop)[b];[a][b]psnr", "-f", "null", "-"])
        guard let found = result.error.range(of: #"average:([0-9.]+|inf)"#, options: .regularExpression) else { return nil }
        // Identical pictures: ffmpeg says "inf".
        let value = result.error[found].dropFirst("average:".count)
        return value == "inf" ? .infinity : Double(value)
    }

    /// Number of decoded frames of the first video stream.
    public static func videoFrameCount(path: String, stream: Int = 0) throws -> Int {
        let result = try Command.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:\(stream)",
                                      "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        // MPEG-TS lists the stream again under its program: the first count is the stream's.
        return result.output.split(separator: "\n").lazy.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first ?? -1
    }
}

public struct ProbeError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
