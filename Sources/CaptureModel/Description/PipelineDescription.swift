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
        /// Where the entry is, for errors found when devices are matched.
        var location: SourceLocation
        var controlsLocation: SourceLocation?
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
    public var replay = SessionConfiguration.Replay.realTime
    /// What `record` does when the session costs more than the machine has.
    public var cost = CostPolicy()
    /// How a recording lightens itself under load.
    public var throttle = ThrottlePolicy()
    /// What a device failing or going away while recording does (`on-device-loss`, `device-timeout`).
    public var deviceLoss = DeviceLossPolicy()
    /// Controls the second camera keeps at the first camera's values (`match`).
    public var matchedControls: [String] = []

    static let topKeys = ["preset", "frame-rate", "replay", "cameras", "microphones", "layout", "output", "cost", "throttle", "on-device-loss", "device-timeout", "match"]
    static let cameraKeys = ["name", "device", "position", "synthetic", "file", "screen", "region", "pointer", "optional", "label", "moving", "facing", "format", "mirror", "rotation", "enabled", "controls"]
    static let microphoneKeys = ["name", "device", "synthetic", "optional", "enabled"]
    static let formatKeys = ["width", "height", "frame-rate", "pixel-format"]
    static let regionKeys = ["x", "y", "width", "height"]
    static let layoutKeys = ["kind", "main", "corner", "size", "margin"]
    static let outputKeys = ["file", "encoder", "speed", "bitrate", "audio-bitrate", "audio", "isolated-cameras", "segment", "keep"]
    static let segmentKeys = ["time", "size"]

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

    public static func parse(_ text: String, file: String) throws -> PipelineDescription {
        var description = PipelineDescription(file: file)
        if let problem = YAMLSubset.problem(in: text) {
            throw DescriptionError(file: file, line: problem.line, column: problem.column, key: "syntax", message: problem.message)
        }
        guard let document = try YAMLReader.load(text, file: file) else {
            throw DescriptionError(file: file, line: 1, column: 1, key: "document", message: "the file is empty")
        }
        let top = try document.mapping(allowed: topKeys)
        if let value = top["preset"] { description.preset = try value.choice(SessionPreset.self) }
        if let value = top["frame-rate"] { description.frameRate = try value.double(in: SessionLimits.frameRate) }
        if let value = top["replay"] { description.replay = try value.choice(SessionConfiguration.Replay.self) }
        if let value = top["cameras"] {
            description.cameras = try value.sequence().map { try entry($0, camera: true) }
            guard !description.cameras.isEmpty else { throw value.error("a description needs at least one camera") }
        }
        if let value = top["microphones"] {
            let entries = try value.sequence()
            if entries.count > SessionLimits.microphones {
                throw entries[SessionLimits.microphones].error("pipcam records at most two microphones")
            }
            description.microphones = try entries.map { try entry($0, camera: false) }
        }
        var names = Set<String>()
        for entry in description.cameras + description.microphones where !names.insert(entry.name).inserted {
            throw entry.location.error("the name '\(entry.name)' is used twice")
        }
        if let value = top["layout"] {
            let fields = try value.mapping(allowed: layoutKeys)
            if let kind = fields["kind"] { description.layout.kind = try kind.choice(Layout.Kind.self) }
            if let main = fields["main"] {
                let name = try main.string()
                guard description.cameras.contains(where: { $0.name == name }) else {
                    throw main.error("no camera named '\(name)' (cameras: \(description.cameras.map(\.name).joined(separator: ", ")))")
                }
                description.layout.mainInputID = name
            }
            if let corner = fields["corner"] { description.layout.corner = try corner.choice(Layout.Corner.self) }
            if let size = fields["size"] { description.layout.insetSize = try size.double(in: SessionLimits.insetSize) }
            if let margin = fields["margin"] { description.layout.margin = try margin.double(in: SessionLimits.margin) }
            let picture = description.preset.outputSize
            if let problem = description.layout.insetProblem(width: picture.width, height: picture.height) { throw value.error(problem) }
        }
        if let value = top["output"] {
            let fields = try value.mapping(allowed: outputKeys)
            if let path = fields["file"] {
                let text = try path.string()
                guard !text.isEmpty else { throw path.error("the output file's path is empty") }
                // As a clip's: relative to the description's folder, so a description records beside itself
                // from wherever it is run.
                description.outputPath = text.hasPrefix("/") ? text : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(text).path
            }
            if let encoder = fields["encoder"] { description.encoder = try encoder.choice(MovieFileOutput.Encoder.self) }
            if let bitrate = fields["bitrate"] { description.videoBitrate = try bitrate.int(in: SessionLimits.videoBitrate) }
            if let speed = fields["speed"] { description.encoderSpeed = try speed.choice(MovieFileOutput.EncoderSpeed.self) }
            if let bitrate = fields["audio-bitrate"] { description.audioBitrate = try bitrate.int(in: SessionLimits.audioBitrate) }
            if let audio = fields["audio"] { description.audioTracks = try audio.choice(MovieFileOutput.AudioTracks.self) }
            if let isolated = fields["isolated-cameras"] { description.isolatedCameraTracks = try isolated.bool() }
            if let segment = fields["segment"] {
                let parts = try segment.mapping(allowed: segmentKeys)
                var segmenting = Segmenting()
                if let time = parts["time"] {
                    guard let value = Segmenting.duration(try time.string()) else { throw time.error("a part's time is like 10m, 90s or 1h") }
                    segmenting.time = value
                }
                if let size = parts["size"] {
                    guard let value = Segmenting.bytes(try size.string()) else { throw size.error("a part's size is like 500MB or 2GB") }
                    segmenting.bytes = value
                }
                do { description.segmenting = try segmenting.checked() } catch { throw segment.error("\(error)") }
            }
            if let keep = fields["keep"] {
                guard description.segmenting != nil else { throw keep.error("'keep' deletes the oldest parts: it needs 'segment'") }
                do { description.segmenting?.keep = try Segmenting.parse(keep: try keep.string()) } catch let error as SegmentingError { throw keep.error(error.description) }
            }
        }
        if let value = top["cost"] { description.cost = try costPolicy(value) }
        if let value = top["throttle"] { description.throttle = try throttlePolicy(value) }
        if let value = top["on-device-loss"] { description.deviceLoss.action = try value.choice(DeviceLossPolicy.Action.self) }
        if let value = top["match"] {
            // A list, or one line: `match: exposure, white-balance`.
            let names = try (value.node.sequence != nil ? value.sequence().map { try $0.string() } : value.string().split(separator: ",").map(String.init))
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, names.count <= SessionLimits.controlsPerCamera,
                  names.allSatisfy({ !$0.isEmpty && $0.count <= SessionLimits.nameLength && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }) else {
                throw value.error("match takes the names of controls the second camera keeps at the first camera's values (exposure, white-balance, …)")
            }
            let cameras = top["cameras"].flatMap { try? $0.sequence().count } ?? 0
            guard cameras >= 2 else { throw value.error("match keeps a second camera at the first camera's values: give two cameras") }
            description.matchedControls = names
        }
        if let value = top["device-timeout"] { description.deviceLoss.silenceTimeout = .seconds(try value.double(in: SessionLimits.deviceTimeoutSeconds)) }
        return description
    }

    private static func entry(_ reader: YAMLReader, camera: Bool) throws -> Entry {
        let fields = try reader.mapping(allowed: camera ? cameraKeys : microphoneKeys)
        guard let nameReader = fields["name"] else { throw reader.error("every \(camera ? "camera" : "microphone") needs a 'name'") }
        let name = try nameReader.string()
        guard name.count <= SessionLimits.nameLength else {
            throw nameReader.error("a name is at most \(SessionLimits.nameLength) characters, not \(name.count)")
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw nameReader.error("'\(name)' is not a valid name (letters, digits, - and _)")
        }
        let sources = ["device", "position", "synthetic", "file", "screen"].filter { fields[$0] != nil }
        guard sources.count <= 1 else { throw reader.error("give only one of \(sources.joined(separator: ", "))") }
        var spec = DeviceSpec.auto
        if let device = fields["device"] {
            let text = try device.string()
            spec = text == "auto" ? .auto : !camera && text == "default" ? .desktopDefault : .device(text)
        } else if let position = fields["position"] {
            spec = .position(try position.choice(DevicePosition.self))
        } else if let synthetic = fields["synthetic"] {
            if camera {
                let pattern = try synthetic.string()
                guard syntheticPatterns.contains(pattern) else {
                    throw synthetic.error("'\(pattern)' is not a test pattern (valid: \(syntheticPatterns.joined(separator: ", ")))")
                }
                spec = .syntheticCamera(pattern: pattern)
            } else {
                spec = (try? synthetic.string()) == "sync" ? .syncMicrophone : .syntheticMicrophone(frequency: try synthetic.double(in: 20...20_000))
            }
        } else if let file = fields["file"] {
            let path = try file.string()
            guard !path.isEmpty else { throw file.error("a clip's path is empty") }
            spec = .file(path)
        } else if let screen = fields["screen"] {
            spec = .screen(display: try screen.string(), region: try fields["region"].map(screenRegion),
                           showsPointer: try fields["pointer"]?.bool() ?? true)
        }
        for key in ["region", "pointer"] where fields[key] != nil {
            guard case .screen = spec else { throw fields[key]!.error("'\(key)' applies to a screen camera only") }
        }
        var entry = Entry(name: name, spec: spec, location: reader.location)
        if let optional = fields["optional"] { entry.optional = try optional.bool() }
        if let enabled = fields["enabled"] { entry.enabled = try enabled.bool() }
        if let label = fields["label"] {
            entry.label = try label.string()
            if let text = entry.label, text.count > SessionLimits.labelLength {
                throw label.error("a label is at most \(SessionLimits.labelLength) characters, not \(text.count)")
            }
        }
        if let moving = fields["moving"] { entry.moving = try moving.bool() }
        if let controls = fields["controls"] {
            switch spec {
            case .auto, .device, .position: break
            default: throw controls.error("controls are a device camera's: this camera's pictures are made by pipcam")
            }
            let pairs = try controls.pairs()
            guard pairs.count <= SessionLimits.controlsPerCamera else {
                throw controls.error("a camera has at most \(SessionLimits.controlsPerCamera) controls set, not \(pairs.count)")
            }
            for (name, value) in pairs {
                guard !name.isEmpty, name.count <= SessionLimits.nameLength, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                    throw value.error("'\(name.prefix(SessionLimits.nameLength))' is not a control's name (letters, digits, - and _)")
                }
                let text = try value.string()
                guard !text.isEmpty, text.count <= SessionLimits.nameLength else { throw value.error("a control's value is 1 to \(SessionLimits.nameLength) characters") }
                entry.controls.append(.init(name: name, value: text))
            }
            entry.controlsLocation = controls.location
        }
        if let facing = fields["facing"] { entry.facing = try facing.choice(DevicePosition.self) }
        if let mirror = fields["mirror"] { entry.mirror = try mirror.bool() }
        if let rotation = fields["rotation"] {
            let degrees = try rotation.int(in: 0...270)
            guard let value = Rotation(rawValue: degrees) else { throw rotation.error("rotation is 0, 90, 180 or 270, not \(degrees)") }
            entry.rotation = value
        }
        if let format = fields["format"] {
            let parts = try format.mapping(allowed: formatKeys)
            guard let width = parts["width"], let height = parts["height"] else { throw format.error("a format needs width and height") }
            let rate = try parts["frame-rate"]?.double(in: SessionLimits.frameRate)
            entry.frameRate = rate
            if let pixelFormat = parts["pixel-format"] {
                let name = try pixelFormat.string()
                guard name == "MJPG" || FormatChooser.rawFormats.contains(name) else {
                    throw pixelFormat.error("'\(name)' is not a pixel format a camera gives (valid: MJPG, \(FormatChooser.rawFormats.sorted().joined(separator: ", ")))")
                }
                // A drawn camera, a clip and a screen give the pictures pipcam makes of them: only a device has formats.
                if fields["synthetic"] != nil || fields["file"] != nil || fields["screen"] != nil {
                    throw pixelFormat.error("a pixel format is a device camera's: this camera's pictures are made by pipcam")
                }
            }
            entry.format = VideoFormat(pixelFormat: try parts["pixel-format"]?.string() ?? "",
                                       width: try width.int(in: SessionLimits.cameraWidth), height: try height.int(in: SessionLimits.cameraHeight),
                                       frameRates: rate.map { [$0] } ?? [])
        }
        return entry
    }

    /// A region of a screen: its top-left corner and size, in the screen's pixels.
    private static func screenRegion(_ reader: YAMLReader) throws -> ScreenRegion {
        let parts = try reader.mapping(allowed: regionKeys)
        guard let width = parts["width"], let height = parts["height"] else { throw reader.error("a region needs width and height") }
        return ScreenRegion(x: try parts["x"]?.int(in: SessionLimits.screenCoordinate) ?? 0, y: try parts["y"]?.int(in: SessionLimits.screenCoordinate) ?? 0,
                            width: try width.int(in: SessionLimits.screenSpan), height: try height.int(in: SessionLimits.screenSpan))
    }

    /// videotestsrc patterns that make sense as a camera.
    /// "sync" is drawn by pipcam: black, lit for the first 100 ms of each whole second of the pipeline's
    /// clock, when a "sync" microphone beeps (see `Pad.drawSyncFlashes`).
    static let syntheticPatterns = ["sync", "smpte", "smpte75", "snow", "ball", "bar", "pinwheel", "spokes", "gradient", "colors",
                                    "circular", "zone-plate", "checkers-8", "red", "green", "blue", "white", "black"]
}
