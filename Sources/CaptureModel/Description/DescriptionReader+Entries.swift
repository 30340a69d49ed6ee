import Foundation

/// A camera's or microphone's entry in a description: its name, where it comes from, and how it is shown.
extension DescriptionReader {
    static func entry(_ reader: YAMLReader, camera: Bool) throws -> PipelineDescription.Entry {
        let fields = try reader.mapping(allowed: camera ? cameraKeys : microphoneKeys)
        guard let nameReader = fields["name"] else { throw reader.error("every \(camera ? "camera" : "microphone") needs a 'name'") }
        let name = try nameReader.string()
        guard name.count <= SessionLimits.nameLength else {
            throw nameReader.error("a name is at most \(SessionLimits.nameLength) characters, not \(name.count)")
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw nameReader.error("'\(name)' is not a valid name (letters, digits, - and _)")
        }
        let sources = ["device", "position", "synthetic", "file", "screen", "url", "camera"].filter { fields[$0] != nil }
        guard sources.count <= 1 else { throw reader.error("give only one of \(sources.joined(separator: ", "))") }
        let spec = try fields["url"].map { .network(try NetworkCamera.described(by: $0, fields: fields, name: name)) } ?? source(fields, camera: camera)
        for key in ["region", "pointer"] where fields[key] != nil {
            guard case .screen = spec else { throw fields[key]!.error("'\(key)' applies to a screen camera only") }
        }
        for key in NetworkCamera.descriptionKeys where camera && fields[key] != nil {
            guard case .network = spec else { throw fields[key]!.error("'\(key)' applies to a network camera (url:) only") }
        }
        var entry = PipelineDescription.Entry(name: name, spec: spec, location: reader.location)
        if let optional = fields["optional"] { entry.optional = try optional.bool() }
        if let enabled = fields["enabled"] { entry.enabled = try enabled.bool() }
        if let label = fields["label"] {
            entry.label = try label.string()
            if let text = entry.label, text.count > SessionLimits.labelLength {
                throw label.error("a label is at most \(SessionLimits.labelLength) characters, not \(text.count)")
            }
        }
        if let moving = fields["moving"] { entry.moving = try moving.bool() }
        if let controls = fields["controls"] { try readControls(controls, spec: spec, into: &entry) }
        if let facing = fields["facing"] { entry.facing = try facing.choice(DevicePosition.self) }
        if let mirror = fields["mirror"] { entry.mirror = try mirror.bool() }
        if let rotation = fields["rotation"] {
            let degrees = try rotation.int(in: 0...270)
            guard let value = Rotation(rawValue: degrees) else { throw rotation.error("rotation is 0, 90, 180 or 270, not \(degrees)") }
            entry.rotation = value
        }
        if !camera { try SoundDescription.read(fields, spec: spec, into: &entry) }
        if let format = fields["format"] { try readFormat(format, madeByPipcam: ["synthetic", "file", "screen", "url"].contains { fields[$0] != nil }, into: &entry) }
        return entry
    }

    /// Where the entry's pictures or sound come from: at most one of device, position, synthetic, file,
    /// screen or (a microphone's) camera; none is `auto`.
    private static func source(_ fields: [String: YAMLReader], camera: Bool) throws -> PipelineDescription.DeviceSpec {
        if let device = fields["device"] {
            let text = try device.string()
            // Longer than any path Linux opens: said in one line, never quoted back whole.
            guard text.utf8.count <= SessionLimits.devicePathLength else {
                throw device.error("a device is a node, a name or an id of at most \(SessionLimits.devicePathLength) bytes, not '\(SecretText.hint(text))'")
            }
            return text == "auto" ? .auto : !camera && text == "default" ? .desktopDefault : .device(text)
        } else if let position = fields["position"] {
            return .position(try position.choice(DevicePosition.self))
        } else if let synthetic = fields["synthetic"] {
            if camera {
                let pattern = try synthetic.string()
                guard syntheticPatterns.contains(pattern) else {
                    throw synthetic.error("'\(pattern)' is not a test pattern (valid: \(syntheticPatterns.joined(separator: ", ")))")
                }
                return .syntheticCamera(pattern: pattern)
            } else {
                switch try? synthetic.string() {
                case "sync": return .syncMicrophone
                // A microphone that hears nothing: a muted headset's stand-in.
                case "silence": return .syntheticMicrophone(frequency: 0)
                default: return .syntheticMicrophone(frequency: try synthetic.double(in: 20...20_000))
                }
            }
        } else if let file = fields["file"] {
            let path = try file.string()
            guard !path.isEmpty else { throw file.error("a clip's path is empty") }
            return .file(path)
        } else if let named = fields["camera"] {
            return .cameraSound(try named.string())
        } else if let screen = fields["screen"] {
            return .screen(display: try screen.string(), region: try fields["region"].map(screenRegion),
                           showsPointer: try fields["pointer"]?.bool() ?? true)
        }
        return .auto
    }

    /// A device camera's `controls:`, as written: checked against the camera when it is found.
    private static func readControls(_ controls: YAMLReader, spec: PipelineDescription.DeviceSpec, into entry: inout PipelineDescription.Entry) throws {
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

    /// A camera's `format:`: its size, rate and pixel format (a device camera's only).
    private static func readFormat(_ format: YAMLReader, madeByPipcam: Bool, into entry: inout PipelineDescription.Entry) throws {
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
            if madeByPipcam {
                throw pixelFormat.error("a pixel format is a device camera's: this camera's pictures are made by pipcam")
            }
        }
        entry.format = VideoFormat(pixelFormat: try parts["pixel-format"]?.string() ?? "",
                                   width: try width.int(in: SessionLimits.cameraWidth), height: try height.int(in: SessionLimits.cameraHeight),
                                   frameRates: rate.map { [$0] } ?? [])
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

    /// A microphone that takes a camera's sound (`camera: hall`) names a network camera of the same
    /// description that can carry sound (an MJPEG camera sends pictures only), and no other microphone
    /// takes it: the camera's keeper links its sound into one branch.
    static func checkCameraSounds(_ microphones: [PipelineDescription.Entry], cameras: [PipelineDescription.Entry]) throws {
        var taken: [String: String] = [:]
        for microphone in microphones {
            guard case .cameraSound(let name) = microphone.spec else { continue }
            try checkCameraSound(microphone, named: name, cameras: cameras)
            if let other = taken.updateValue(microphone.name, forKey: name) {
                throw microphone.location.error("microphone '\(microphone.name)': camera '\(name)' gives its sound to microphone '\(other)' already")
            }
        }
    }

    private static func checkCameraSound(_ microphone: PipelineDescription.Entry, named name: String, cameras: [PipelineDescription.Entry]) throws {
        guard let camera = cameras.first(where: { $0.name == name }) else {
            throw microphone.location.error("microphone '\(microphone.name)': no camera named '\(name)' (cameras: \(cameras.map(\.name).joined(separator: ", ")))")
        }
        guard case .network(let network) = camera.spec else {
            throw microphone.location.error("microphone '\(microphone.name)': camera '\(name)' is not a network camera (url:); a webcam's microphone is a sound card of its own: give its device")
        }
        guard network.carriesSound else {
            throw microphone.location.error("microphone '\(microphone.name)': camera '\(name)' sends MJPEG over HTTP, which carries no sound")
        }
    }
}
