import Foundation

extension PipelineDescription {
    /// Matches the description's devices against `devices` (those present) and builds the session
    /// configuration: every camera and microphone connected to the movie file at `outputPath`.
    ///
    /// With `standIns`, a real device that is not present is replaced by a synthetic one, so a file can be
    /// validated on a machine without cameras; the returned notes say what was replaced.
    public func configuration(devices: [CaptureDevice], outputPath: String, standIns: Bool = false) throws -> (SessionConfiguration, notes: [String]) {
        var configuration = SessionConfiguration()
        configuration.preset = preset
        configuration.frameRate = frameRate
        configuration.layout = layout
        var notes: [String] = []
        var taken = Set<String>()
        let movie = MovieFileOutput(path: outputPath, encoder: encoder, videoBitrate: videoBitrate, audioBitrate: audioBitrate,
                                    audioTracks: audioTracks, isolatedCameraTracks: isolatedCameraTracks)
        configuration.movieFile = movie

        for (entries, kind) in [(cameras, MediaType.video), (microphones, MediaType.audio)] {
            for (index, entry) in entries.enumerated() {
                let candidates = devices.filter { $0.mediaType == kind && !taken.contains($0.id) }
                guard var device = try resolve(entry, kind: kind, candidates: candidates) else {
                    if standIns {
                        notes.append("\(entry.name): \(Self.describe(entry.spec)) is not present here; checked with a synthetic stand-in")
                        let standIn = kind == .video
                            ? CaptureDevice.testPatternCamera(id: entry.name, pattern: "smpte", label: entry.name)
                            : CaptureDevice.toneMicrophone(id: entry.name, frequency: 440 + 220 * Double(index))
                        try add(standIn, entry: entry, to: &configuration, movie: movie)
                        continue
                    }
                    if entry.optional { continue }
                    let present = devices.filter { $0.mediaType == kind }.map(\.id)
                    throw DescriptionError(file: file, line: entry.location.line, column: entry.location.column, key: entry.location.key,
                                           message: "no \(kind == .video ? "camera" : "microphone") matches \(Self.describe(entry.spec)) (present: \(present.isEmpty ? "none" : present.joined(separator: ", ")))")
                }
                taken.insert(device.id)
                if let facing = entry.facing { device.position = facing }
                try add(device, entry: entry, to: &configuration, movie: movie)
            }
        }
        try configuration.validate()
        return (configuration, notes)
    }

    private func add(_ device: CaptureDevice, entry: Entry, to configuration: inout SessionConfiguration, movie: MovieFileOutput) throws {
        // The entry's name is the input's id, so layouts and connections can refer to it.
        let named = CaptureDevice(id: entry.name, name: device.name, mediaType: device.mediaType, position: device.position,
                                  busInfo: device.busInfo, source: device.source, formats: device.formats)
        var format = entry.format
        if var requested = format, requested.pixelFormat.isEmpty {
            // No pixel format given: the device's own at that size, raw before MJPEG.
            let sameSize = device.formats.filter { $0.width == requested.width && $0.height == requested.height }
            requested.pixelFormat = (sameSize.first { !$0.isCompressed } ?? sameSize.first)?.pixelFormat ?? "I420"
            format = requested
        }
        let input = DeviceInput(device: named, activeFormat: format, activeFrameRate: entry.frameRate)
        if let reason = configuration.reasonCannotAdd(input) {
            throw DescriptionError(file: file, line: entry.location.line, column: entry.location.column, key: entry.location.key, message: reason)
        }
        configuration.inputs.append(input)
        var connection = Connection(from: input.port, to: movie.id, rotation: entry.rotation, mirrored: entry.mirror)
        connection.isEnabled = entry.enabled
        if let reason = configuration.reasonCannotAdd(connection) {
            throw DescriptionError(file: file, line: entry.location.line, column: entry.location.column, key: entry.location.key, message: reason)
        }
        configuration.connections.append(connection)
    }

    private func resolve(_ entry: Entry, kind: MediaType, candidates: [CaptureDevice]) throws -> CaptureDevice? {
        switch entry.spec {
        case .auto:
            return candidates.first
        case .device(let id):
            return candidates.first { device in
                if device.id == id { return true }
                switch device.source {
                case .v4l2(let path): return path == id || URL(fileURLWithPath: id).resolvingSymlinksInPath().path == path
                case .alsa(let name): return name == id
                default: return false
                }
            }
        case .position(let position):
            return candidates.first { $0.position == position }
        case .syntheticCamera(let pattern):
            return .testPatternCamera(id: entry.name, pattern: pattern, label: entry.label ?? entry.name, moving: entry.moving)
        case .syntheticMicrophone(let frequency):
            return .toneMicrophone(id: entry.name, frequency: frequency)
        case .file(let path):
            let resolved = path.hasPrefix("/") ? path : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: resolved) else {
                throw DescriptionError(file: file, line: entry.location.line, column: entry.location.column, key: entry.location.key + ".file",
                                       message: "the clip '\(path)' does not exist")
            }
            return .fileCamera(id: entry.name, path: resolved)
        }
    }

    static func describe(_ spec: DeviceSpec) -> String {
        switch spec {
        case .auto: return "the next device found"
        case .device(let id): return "'\(id)'"
        case .position(let position): return "position \(position.rawValue)"
        case .syntheticCamera(let pattern): return "test pattern \(pattern)"
        case .syntheticMicrophone(let frequency): return "tone \(frequency) Hz"
        case .file(let path): return "clip \(path)"
        }
    }
}
