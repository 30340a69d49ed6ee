import Foundation

extension PipelineDescription {
    /// Matches the description's devices against `devices` (those present) and builds the session
    /// configuration: every camera and microphone connected to the movie file at `outputPath`.
    ///
    /// With `standIns`, a real device that is not present is replaced by a synthetic one, so a file can be
    /// validated on a machine without cameras; the returned notes say what was replaced.
    /// `soundServerSources` names the desktop sound server's capture sources, asked only when a microphone
    /// is not among `devices` (asking the server takes a moment).
    public func configuration(devices: [CaptureDevice], outputPath: String, standIns: Bool = false,
                              soundServerSources: () -> Set<String> = { [] }) throws -> (SessionConfiguration, notes: [String]) {
        guard !cameras.isEmpty else {
            throw DescriptionError(file: file, line: 1, column: 1, key: "cameras", message: "a description needs at least one camera: add a 'cameras:' list")
        }
        var configuration = SessionConfiguration()
        configuration.preset = preset
        configuration.frameRate = frameRate
        configuration.layout = layout
        configuration.costPolicy = cost
        configuration.throttlePolicy = throttle
        configuration.replay = replay
        configuration.deviceLoss = deviceLoss
        configuration.matchedControls = matchedControls
        var notes: [String] = []
        let movie = MovieFileOutput(path: outputPath, encoder: encoder, videoBitrate: videoBitrate, audioBitrate: audioBitrate,
                                    audioTracks: audioTracks, isolatedCameraTracks: isolatedCameraTracks)
        configuration.movieFile = movie
        configuration.movieFile?.encoderSpeed = encoderSpeed
        configuration.movieFile?.segmenting = segmenting
        configuration.movieFile?.upload = upload
        configuration.streams = streams

        for (entries, kind) in [(cameras, MediaType.video), (microphones, MediaType.audio)] {
            let chosen = try choose(entries, kind: kind, from: devices.filter { $0.mediaType == kind }, soundServerSources: soundServerSources)
            for (index, entry) in entries.enumerated() {
                guard var device = chosen[index] else {
                    if kind == .video, case .device(let path) = entry.spec, path.hasPrefix("/"), let problem = CameraAccess.notACamera(path) {
                        throw entry.location.error("camera '\(entry.name)': \(path) \(problem)")
                    }
                    if standIns {
                        notes.append("\(entry.name): \(Self.describe(entry.spec)) is not present here; checked with a synthetic stand-in")
                        let standIn = kind == .video
                            ? CaptureDevice.testPatternCamera(id: entry.name, pattern: "smpte", label: entry.name)
                            : CaptureDevice.toneMicrophone(id: entry.name, frequency: 440 + 220 * Double(index))
                        try add(standIn, entry: entry, to: &configuration, movie: movie, notes: &notes)
                        continue
                    }
                    if entry.optional, kind == .video, deviceLoss.action == .continue, case .device(let path) = entry.spec, path.hasPrefix("/dev/") {
                        // A camera named by its node or link waits in the picture until it is plugged in.
                        notes.append("\(entry.name): \(path) is not present; it joins the recording when it is plugged in")
                        try add(CaptureDevice(id: entry.name, name: entry.name, mediaType: .video, source: .v4l2(path: path)), entry: entry, to: &configuration, movie: movie, notes: &notes)
                        continue
                    }
                    if entry.optional { continue }
                    let present = devices.filter { $0.mediaType == kind }.map(\.id)
                    throw entry.location.error("no \(kind == .video ? "camera" : "microphone") matches \(Self.describe(entry.spec)) (present: \(present.isEmpty ? "none" : present.joined(separator: ", ")))")
                }
                if let facing = entry.facing { device.position = facing }
                if case .screencast = device.source {
                    notes.append("\(entry.name): the screen is shared through the desktop's portal when recording starts; the desktop may ask which screen")
                }
                try add(device, entry: entry, to: &configuration, movie: movie, notes: &notes)
            }
        }
        if let main = configuration.layout.mainInputID, configuration.input(main) == nil {
            notes.append("layout.main: '\(main)' is not present; the first camera is shown full frame")
            configuration.layout.mainInputID = nil
        }
        try configuration.validate()
        return (configuration, notes)
    }

    private func add(_ device: CaptureDevice, entry: Entry, to configuration: inout SessionConfiguration, movie: MovieFileOutput,
                     notes: inout [String]) throws {
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
        var input = DeviceInput(device: named, activeFormat: format, activeFrameRate: entry.frameRate)
        input.isOptional = entry.optional
        input.sound = entry.sound
        input.addedNoise = entry.addedNoise
        input.beepDelay = entry.beepDelay
        if !entry.controls.isEmpty {
            if let camera = CameraControls(device: named), let offered = try? camera.all() {
                // Checked against the camera's controls now; made when it opens (and each time it is back).
                let (_, skipped) = try Self.checkControls(entry, camera: entry.name, offered: offered, force: forceControls)
                notes += skipped.map { "warning: \($0) (left out: --force-controls)" }
                input.controls = entry.controls.filter { setting in !skipped.contains { $0.setting == setting.name } }
            } else if CameraControls(device: named) == nil {
                notes.append("\(entry.name): its controls apply to a camera device; not set on a stand-in")
            } else {
                input.controls = entry.controls
            }
        }
        if let reason = configuration.reasonCannotAdd(input) { throw entry.location.error(reason) }
        configuration.inputs.append(input)
        var connection = Connection(from: input.port, to: movie.id, rotation: entry.rotation, mirrored: entry.mirror)
        connection.isEnabled = entry.enabled
        if let reason = configuration.reasonCannotAdd(connection) { throw entry.location.error(reason) }
        configuration.connections.append(connection)
    }

    private static func checkControls(_ entry: Entry, camera: String, offered: [CameraControl], force: Bool) throws -> ([ControlSettings.Step], [ControlSettings.Problem]) {
        do {
            return try ControlSettings.plan(entry.controls, camera: camera, controls: offered, force: force)
        } catch let problem as ControlSettings.Problem {
            throw (entry.controlsLocation ?? entry.location).error(problem.description)
        }
    }

    /// The device for each entry, by index. Entries naming a device take theirs first, then those asking
    /// for a position, then `auto` ones the rest in order, so an `auto` listed first cannot take a camera
    /// that a later entry names.
    private func choose(_ entries: [Entry], kind: MediaType, from present: [CaptureDevice], soundServerSources: () -> Set<String>) throws -> [Int: CaptureDevice] {
        func rank(_ spec: DeviceSpec) -> Int {
            switch spec {
            case .device: return 0
            case .position: return 1
            case .auto: return 2
            default: return 0
            }
        }
        var chosen: [Int: CaptureDevice] = [:]
        var taken = Set<String>()
        for (index, entry) in entries.enumerated().sorted(by: { rank($0.element.spec) < rank($1.element.spec) }) {
            guard let device = try resolve(entry, kind: kind, candidates: present.filter { !taken.contains($0.id) }, soundServerSources: soundServerSources) else { continue }
            taken.insert(device.id)
            chosen[index] = device
        }
        return chosen
    }

    private func resolve(_ entry: Entry, kind: MediaType, candidates: [CaptureDevice], soundServerSources: () -> Set<String>) throws -> CaptureDevice? {
        switch entry.spec {
        case .auto:
            return candidates.first
        case .device(let id):
            let card = kind == .audio ? CaptureDevice.alsaID(of: id) : nil
            let found = candidates.first { device in
                guard device.id != id, device.id != card else { return true }
                guard let node = device.node else { return false }
                // A camera may be named by any link to its node (/dev/v4l/by-id/…).
                return node == id || (device.isCamera && URL(fileURLWithPath: id).resolvingSymlinksInPath().path == node)
            }
            // A microphone by the name the desktop's sound server shows for it (pactl, wpctl).
            if found == nil, kind == .audio, soundServerSources().contains(id) { return .soundServerMicrophone(id: entry.name, source: id) }
            return found
        case .position(let position):
            return candidates.first { $0.position == position }
        case .syntheticCamera(let pattern):
            return .testPatternCamera(id: entry.name, pattern: pattern, label: entry.label ?? entry.name, moving: entry.moving)
        case .syntheticMicrophone(let frequency):
            return .toneMicrophone(id: entry.name, frequency: frequency)
        case .syncMicrophone:
            return .syncMicrophone(id: entry.name)
        case .desktopDefault:
            // Without a sound server there is no default input, as a microphone that is not plugged in.
            return SoundServer.isRunning() ? .soundServerMicrophone(id: entry.name, source: nil) : nil
        case .file(let path):
            let resolved = path.hasPrefix("/") ? path : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).path
            if let problem = ReadableFile.problem(at: resolved) {
                throw entry.location.error("camera '\(entry.name)': the clip '\(path)' \(problem)")
            }
            return .fileCamera(id: entry.name, path: resolved)
        case .screen(let display, let region, let showsPointer):
            if Self.sharesThroughPortal(display) {
                // The portal shares whole screens; the user picks which.
                if region != nil { throw entry.location.error("a region applies to an X display's screen; 'screen: \(display)' is shared whole through the desktop's portal") }
                return .screencastCamera(id: entry.name, showsPointer: showsPointer)
            }
            // Without a display there is no screen here, as a camera that is not plugged in (stand-ins apply).
            guard let name = Self.displayName(display) else { return nil }
            return .screenCamera(id: entry.name, display: name, region: region, showsPointer: showsPointer)
        case .network(let camera):
            return .networkCamera(id: entry.name, camera)
        case .cameraSound(let camera):
            return .cameraSound(id: entry.name, camera: camera)
        }
    }

    /// Whether a screen camera is shared through the desktop's portal: "portal" says so, and "default"
    /// means it on a Wayland desktop, where an X client would see only other X clients' windows.
    static func sharesThroughPortal(_ display: String) -> Bool {
        display == "portal" || (display == "default" && !(ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "").isEmpty)
    }

    /// The X display a screen camera names: "default" is the one in DISPLAY, if any.
    static func displayName(_ display: String) -> String? {
        let name = display == "default" ? ProcessInfo.processInfo.environment["DISPLAY"] ?? "" : display
        return name.isEmpty ? nil : name
    }

    static func describe(_ spec: DeviceSpec) -> String {
        switch spec {
        case .auto: return "the next device found"
        case .device(let id): return "'\(id)'"
        case .position(let position): return "position \(position.rawValue)"
        case .syntheticCamera(let pattern): return "test pattern \(pattern)"
        case .syntheticMicrophone(let frequency): return frequency > 0 ? "tone \(frequency) Hz" : "silence"
        case .syncMicrophone: return "sync beeps"
        case .desktopDefault: return SoundServer.isRunning() ? "the desktop's default input" : "the desktop's default input (no PipeWire or PulseAudio server is running)"
        case .file(let path): return "clip \(path)"
        case .screen(let display, _, _):
            if sharesThroughPortal(display) { return "the screen shared through the desktop's portal" }
            return displayName(display) == nil ? "the screen (DISPLAY is not set)" : "screen \(display)"
        case .network(let camera): return camera.shownAddress
        case .cameraSound(let camera): return "the sound of camera '\(camera)'"
        }
    }
}
