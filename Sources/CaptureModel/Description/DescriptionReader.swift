import Foundation

/// Reads a description's YAML into a `PipelineDescription`, checking each value where it is: every
/// error names the file, line and column and what is expected there (schema in pipelines/README.md).
enum DescriptionReader {
    static let topKeys = ["preset", "frame-rate", "replay", "cameras", "microphones", "layout", "output", "cost", "throttle", "on-device-loss", "device-timeout", "match"]
    static let cameraKeys = ["name", "device", "position", "synthetic", "file", "screen", "region", "pointer", "optional", "label", "moving", "facing", "format", "mirror", "rotation", "enabled", "controls", "url"] + NetworkCamera.descriptionKeys
    static let microphoneKeys = ["name", "device", "synthetic", "camera", "optional", "enabled", "noise", "delay"] + SoundDescription.keys
    static let formatKeys = ["width", "height", "frame-rate", "pixel-format"]
    static let regionKeys = ["x", "y", "width", "height"]
    static let layoutKeys = ["kind", "main", "corner", "size", "margin"]
    static let outputKeys = ["file", "encoder", "speed", "bitrate", "audio-bitrate", "audio", "isolated-cameras", "segment", "keep", "streams", "upload"]


    static func read(_ text: String, file: String) throws -> PipelineDescription {
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
            try checkCameraSounds(description.microphones, cameras: description.cameras)
        }
        var names = Set<String>()
        for entry in description.cameras + description.microphones where !names.insert(entry.name).inserted {
            throw entry.location.error("the name '\(entry.name)' is used twice")
        }
        if let value = top["layout"] { try readLayout(value, into: &description) }
        if let value = top["output"] { try readOutput(value, into: &description) }
        if let value = top["cost"] { description.cost = try costPolicy(value) }
        if let value = top["throttle"] { description.throttle = try throttlePolicy(value) }
        if let value = top["on-device-loss"] { description.deviceLoss.action = try value.choice(DeviceLossPolicy.Action.self) }
        if let value = top["match"] { try readMatch(value, cameras: description.cameras.count, into: &description) }
        if let value = top["device-timeout"] { description.deviceLoss.silenceTimeout = try value.duration(in: SessionLimits.deviceTimeout, bare: .seconds) }
        return description
    }

    /// `layout:`: the kind, the main camera (by name), and the inset's corner, size and margin.
    private static func readLayout(_ value: YAMLReader, into description: inout PipelineDescription) throws {
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

    /// `output:`: the file, its encoding, its tracks, its parts, and its streams.
    private static func readOutput(_ value: YAMLReader, into description: inout PipelineDescription) throws {
        let fields = try value.mapping(allowed: outputKeys)
        if let path = fields["file"] {
            let text = try path.string()
            guard !text.isEmpty else { throw path.error("the output file's path is empty") }
            // As a clip's: relative to the description's folder, so a description records beside itself
            // from wherever it is run.
            description.outputPath = text.hasPrefix("/") ? text : URL(fileURLWithPath: description.file).deletingLastPathComponent().appendingPathComponent(text).path
        }
        if let encoder = fields["encoder"] { description.encoder = try encoder.choice(MovieFileOutput.Encoder.self) }
        if let bitrate = fields["bitrate"] { description.videoBitrate = try bitrate.int(in: SessionLimits.videoBitrate) }
        if let speed = fields["speed"] { description.encoderSpeed = try speed.choice(MovieFileOutput.EncoderSpeed.self) }
        if let bitrate = fields["audio-bitrate"] { description.audioBitrate = try bitrate.int(in: SessionLimits.audioBitrate) }
        if let audio = fields["audio"] { description.audioTracks = try audio.choice(MovieFileOutput.AudioTracks.self) }
        if let isolated = fields["isolated-cameras"] { description.isolatedCameraTracks = try isolated.bool() }
        try PartsDescription.read(fields, into: &description)
        if let streams = fields["streams"] { description.streams = try StreamOutput.streams(describedBy: streams) }
    }

    /// `match:`: the controls a second camera keeps at the first camera's values.
    private static func readMatch(_ value: YAMLReader, cameras: Int, into description: inout PipelineDescription) throws {
        // A list, or one line: `match: exposure, white-balance`.
        let names = try (value.node.sequence != nil ? value.sequence().map { try $0.string() } : value.string().split(separator: ",").map(String.init))
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, names.count <= SessionLimits.controlsPerCamera,
              names.allSatisfy({ !$0.isEmpty && $0.count <= SessionLimits.nameLength && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }) else {
            throw value.error("match takes the names of controls the second camera keeps at the first camera's values (exposure, white-balance, …)")
        }
        guard cameras >= 2 else { throw value.error("match keeps a second camera at the first camera's values: give two cameras") }
        description.matchedControls = names
    }
}
