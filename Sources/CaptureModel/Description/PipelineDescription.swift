import Foundation

/// A session described in a YAML file (schema in pipelines/README.md). Parsing checks the file alone;
/// `configuration(devices:)` then finds the devices it names among those present.
public struct PipelineDescription: Sendable {
    /// Where a camera or microphone comes from.
    public enum DeviceSpec: Sendable, Equatable {
        /// The next present device of this kind not taken by an earlier entry.
        case auto
        /// A device by id (stable id, node such as /dev/video0, or ALSA name such as hw:1,0).
        case device(String)
        /// The first present camera facing this way.
        case position(DevicePosition)
        /// A synthetic camera with this test pattern, or a synthetic microphone with this tone.
        case syntheticCamera(pattern: String)
        case syntheticMicrophone(frequency: Double)
        /// The synthetic microphone that beeps with the "sync" camera pattern's flashes.
        case syncMicrophone
        /// The desktop's default input, as its sound server (PipeWire or PulseAudio) has it.
        case desktopDefault
        /// A recorded clip replayed as a live camera.
        case file(String)
        /// An X display's screen ("default": the one in DISPLAY), whole or a region, with or without the pointer.
        case screen(display: String, region: ScreenRegion?, showsPointer: Bool)
        /// A camera on the network (`url:`).
        case network(NetworkCamera)
        /// The sound of the network camera with this name (`camera:` on a microphone).
        case cameraSound(String)
    }

    public struct Entry: Sendable {
        public var name: String
        public var spec: DeviceSpec
        public var optional = false
        public var label: String?
        public var moving = true
        public var facing: DevicePosition?
        public var format: VideoFormat?
        public var frameRate: Double?
        public var mirror = false
        public var rotation = Rotation.none
        public var enabled = true
        /// A device camera's controls, as written (`ControlSettings`).
        public var controls: [ControlSettings.Setting] = []
        /// A microphone's processing, and a synthetic one's added noise and beeps' delay.
        public var sound = SoundProcessing()
        public var addedNoise: Double?
        public var beepDelay = Duration.zero
        /// Where the entry is, for errors found when devices are matched.
        package var location: SourceLocation
        package var controlsLocation: SourceLocation?
    }

    public var file: String
    /// Controls a camera cannot take are warnings, not errors (`--force-controls`).
    public var forceControls = false
    public var preset = SessionPreset.high
    public var frameRate: Double?
    public var cameras: [Entry] = []
    public var microphones: [Entry] = []
    public var layout = Layout()
    public var outputPath: String?
    public var encoder = MovieFileOutput.Encoder.software
    public var videoBitrate: Int?
    public var audioBitrate = 96
    public var audioTracks = MovieFileOutput.AudioTracks.mixedAndSeparate
    public var isolatedCameraTracks = false
    public var encoderSpeed = MovieFileOutput.EncoderSpeed.veryfast
    /// `output.segment` and `output.keep`: parts instead of one file.
    public var segmenting: Segmenting?
    /// `output.upload.command`: what each finished file is handed to.
    public var upload: UploadCommand?
    /// `output.streams`: the recording sent live.
    public var streams: [StreamOutput] = []
    public var replay = SessionConfiguration.Replay.realTime
    /// What `record` does when the session costs more than the machine has.
    public var cost = CostPolicy()
    /// How a recording lightens itself under load.
    public var throttle = ThrottlePolicy()
    /// What a device failing or going away while recording does (`on-device-loss`, `device-timeout`).
    public var deviceLoss = DeviceLossPolicy()
    /// Controls the second camera keeps at the first camera's values (`match`).
    public var matchedControls: [String] = []

    /// Reads and checks a description file.
    /// The largest description read: a session's description is a few hundred bytes.
    public static let sizeLimit: Int64 = 1 << 20

    public static func load(path: String) throws -> PipelineDescription {
        // Checked before opening: a FIFO would block the open, and a huge file would be read whole.
        if let problem = ReadableFile.problem(at: path) {
            throw DescriptionError(file: path, line: 0, column: 0, key: "file", message: "the description \(problem)")
        }
        if let size = ReadableFile.size(at: path), size > sizeLimit {
            throw DescriptionError(file: path, line: 0, column: 0, key: "file",
                                   message: "the description is \(size) bytes; a description is at most \(sizeLimit) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DescriptionError(file: path, line: 0, column: 0, key: "file", message: "cannot read the file (missing or not readable)")
        }
        if let problem = YAMLSubset.encodingProblem(Array(data.prefix(2))) {
            throw DescriptionError(file: path, line: 1, column: 1, key: "syntax", message: problem)
        }
        var text = String(decoding: data, as: UTF8.self)
        // Editors on some systems start UTF-8 files with a byte-order mark; YAML allows it.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return try parse(text, file: path)
    }

    /// Reads and checks a description's text (`DescriptionReader`); `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> PipelineDescription {
        try DescriptionReader.read(text, file: file)
    }
}
