import CaptureModel
import Foundation
import GStreamer
import LinuxIO

/// One capture of a photo output: stills from the cameras (and of the composed picture) taken off the
/// running graph by one-shot probes, encoded apart from the recording, then a sidecar describing them.
package struct PhotoCapture {
    let running: RunningGraph
    let configuration: SessionConfiguration
    let settings: PhotoSettings
    let report: @Sendable (PhotoCaptureEvent) -> Void

    package init(running: RunningGraph, configuration: SessionConfiguration, settings: PhotoSettings,
                 report: @escaping @Sendable (PhotoCaptureEvent) -> Void) {
        self.running = running
        self.configuration = configuration
        self.settings = settings
        self.report = report
    }

    /// How long to wait for a camera's next frame before saying it delivers none.
    static let frameTimeout: Duration = .seconds(5)
    /// How many frames pass after a control changes before a bracketed still is taken.
    static let settleFrames = 4

    private struct Camera {
        let inputID: String
        let device: CaptureDevice
        let connection: Connection
        let pad: Pad
    }

    package func run() async throws -> PhotoCaptureResult {
        report(.willBeginCapture(id: settings.captureID))
        let cameras = try self.cameras()
        var result = PhotoCaptureResult(id: settings.captureID, takenAt: ISO8601DateFormatter().string(from: Date()),
                                        timing: settings.timing.rawValue, format: settings.format.rawValue, stills: [], liveClip: nil,
                                        sidecar: path("json"))
        let ring = running.livePhotoRing
        if settings.livePhoto {
            guard let ring else { throw CaptureError.photo(.livePhotoOff) }
            // The clip starts 1.5 s before the shutter: wait until that much has been recorded, counting from
            // the first encoded picture, which a capture asked for as the session starts may come before.
            if ring.span == nil { _ = await ring.wait(until: .zero, timeout: .seconds(5)) }
            if let span = ring.span, span.last - span.first < .milliseconds(1500) {
                _ = await ring.wait(until: span.first + .milliseconds(1600), timeout: .seconds(5))
            }
        }
        report(.willCapturePhoto(id: settings.captureID))
        var shutter: Duration?
        if let bracket = settings.bracket {
            result.stills = try await bracketed(cameras, bracket)
        } else {
            result.stills = try await stills(of: cameras)
        }
        shutter = result.stills.first.map { .milliseconds(Int64($0.time * 1000)) }
        if settings.livePhoto, let ring, let shutter {
            guard await ring.wait(until: shutter + .milliseconds(1500), timeout: .seconds(10)) else {
                throw CaptureError.photo(.endedBeforeLivePhoto)
            }
            let clip = path("mkv", suffix: "live")
            try await ClipWriter.write(ring.clip(from: shutter - .milliseconds(1500), to: shutter + .milliseconds(1500)), to: clip)
            result.liveClip = clip
        }
        try writeSidecar(result)
        report(.didFinishCapture(result))
        return result
    }

    // MARK: stills

    private func stills(of cameras: [Camera]) async throws -> [CapturedStill] {
        var stills: [CapturedStill] = []
        let composite = try compositePad()
        switch settings.timing {
        case .simultaneous:
            // Every camera's next frame (and the composed picture's) at once, then encode them one by one.
            let samples = try await withThrowingTaskGroup(of: (Int, Sample).self) { group in
                for (index, camera) in cameras.enumerated() {
                    group.addTask { (index, try await camera.pad.nextSample(timeout: Self.frameTimeout)) }
                }
                if let composite { group.addTask { (cameras.count, try await composite.nextSample(timeout: Self.frameTimeout)) } }
                var taken: [Int: Sample] = [:]
                for try await (index, sample) in group { taken[index] = sample }
                return taken
            }
            for (index, camera) in cameras.enumerated() {
                stills.append(try await encode(samples[index]!, source: camera.inputID, device: camera.device, direction: camera.connection.videoDirection))
            }
            if let sample = samples[cameras.count] { stills.append(try await encode(sample, source: "composite", device: nil, direction: .identity)) }
        case .sequential:
            for camera in cameras {
                let sample = try await camera.pad.nextSample(timeout: Self.frameTimeout)
                stills.append(try await encode(sample, source: camera.inputID, device: camera.device, direction: camera.connection.videoDirection))
            }
            if let composite {
                stills.append(try await encode(try await composite.nextSample(timeout: Self.frameTimeout), source: "composite", device: nil, direction: .identity))
            }
        }
        return stills
    }

    /// N stills per camera that has the control, stepping it across the middle of its range; the
    /// control is put back afterwards, also when a still fails.
    private func bracketed(_ cameras: [Camera], _ bracket: PhotoSettings.Bracket) async throws -> [CapturedStill] {
        let plans = cameras.compactMap { camera -> (Camera, CameraControls, CameraControls.Control, CameraControls.Range)? in
            guard let controls = CameraControls(device: camera.device) else { return nil }
            for control in Self.candidates(bracket.control) {
                if let range = controls.range(of: control) { return (camera, controls, control, range) }
            }
            return nil
        }
        guard !plans.isEmpty else {
            throw CaptureError.photo(.nothingToBracket(looked: Self.candidates(bracket.control).map(\.rawValue)))
        }
        var stills: [CapturedStill] = []
        for (camera, controls, control, range) in plans {
            let original = controls.value(of: control)
            let manualExposure = control == .exposure ? controls.value(of: .exposureMode) : nil
            let autoGain = control == .gain ? controls.value(of: .autoGain) : nil
            defer {
                if let original { try? controls.set(control, to: original) }
                if let manualExposure { try? controls.set(.exposureMode, to: manualExposure) }
                if let autoGain { try? controls.set(.autoGain, to: autoGain) }
            }
            if manualExposure != nil { try? controls.set(.exposureMode, to: 1) }
            if autoGain != nil { try? controls.set(.autoGain, to: 0) }
            for (index, value) in Self.steps(range, count: bracket.count).enumerated() {
                try controls.set(control, to: value)
                let sample = try await camera.pad.nextSample(skipping: Self.settleFrames, timeout: Self.frameTimeout)
                var still = try await encode(sample, source: camera.inputID, device: camera.device, direction: camera.connection.videoDirection,
                                             suffix: "b\(index + 1)")
                still.bracket = [control.rawValue: value]
                stills.append(still)
            }
        }
        return stills
    }

    static func candidates(_ control: PhotoSettings.Bracket.Control) -> [CameraControls.Control] {
        switch control {
        case .automatic: return [.exposure, .brightness, .gain]
        case .exposure: return [.exposure]
        case .brightness: return [.brightness]
        case .gain: return [.gain]
        }
    }

    /// `count` values evenly across the middle 60 % of the range, on the control's steps.
    static func steps(_ range: CameraControls.Range, count: Int) -> [Int] {
        let low = Double(range.minimum) + Double(range.maximum - range.minimum) * 0.2
        let high = Double(range.minimum) + Double(range.maximum - range.minimum) * 0.8
        return (0..<count).map { index in
            let value = count == 1 ? Double(range.defaultValue) : low + (high - low) * Double(index) / Double(count - 1)
            let stepped = range.minimum + Int(((value - Double(range.minimum)) / Double(range.step)).rounded()) * range.step
            return min(range.maximum, max(range.minimum, stepped))
        }
    }

    private func encode(_ sample: Sample, source: String, device: CaptureDevice?, direction: VideoDirection, suffix: String? = nil) async throws -> CapturedStill {
        let name = Self.fileName(source) + (suffix.map { "-\($0)" } ?? "")
        let file = path(settings.format.fileExtension, suffix: name)
        let thumbnail = path(settings.format.fileExtension, suffix: "\(name)-thumb")
        let output = try await StillEncoder.encode(sample, direction: direction, format: settings.format, quality: settings.quality,
                                                   thumbnailSize: settings.thumbnailSize, path: file, thumbnailPath: thumbnail)
        let still = CapturedStill(source: source, file: file, thumbnail: thumbnail, width: output.width, height: output.height,
                                  pixelFormat: output.pixelFormat, time: sample.runningTime?.seconds ?? 0,
                                  controls: device.map(Self.controls) ?? ["layout": configuration.layout.kind.rawValue])
        report(.didFinishProcessingPhoto(still))
        return still
    }

    /// What the camera's picture depends on: its V4L2 controls, or the pattern of a synthetic camera.
    static func controls(of device: CaptureDevice) -> [String: String] {
        switch device.source {
        case .v4l2: return (CameraControls(device: device)?.snapshot() ?? [:]).mapValues(String.init)
        case .testPattern(let pattern, _, _): return ["pattern": pattern]
        case .file(let path): return ["clip": path]
        case .screen(let display, _, _): return ["screen": display]
        case .screencast: return ["screen": "portal"]
        case .network(let camera): return ["url": camera.shownAddress]
        case .pipewire, .alsa, .tone, .syncBeeps, .soundServer, .cameraSound: return [:]
        }
    }

    // MARK: places

    /// A camera id as part of a file name: "/dev/v4l/by-id/usb-Cam-video-index0" → "usb-Cam-video-index0".
    static func fileName(_ id: String) -> String {
        let last = id.split(separator: "/").last.map(String.init) ?? id
        return String(last.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
    }

    /// The cameras connected to the photo output, back camera first for a sequential capture.
    private func cameras() throws -> [Camera] {
        var cameras = try configuration.photoConnections.map { connection -> Camera in
            let inputID = connection.inputPorts[0].inputID
            guard let input = configuration.input(inputID), let element = running.plan[input: inputID].stillSource.flatMap({ running.pipeline[$0] }) else {
                throw CaptureError.photo(.cameraNotRunning(inputID))
            }
            return Camera(inputID: inputID, device: input.device, connection: connection, pad: try element.staticPad("src"))
        }
        guard !cameras.isEmpty else { throw CaptureError.photo(.noCamera) }
        if settings.timing == .sequential {
            let order: [DevicePosition] = [.back, .front, .external, .unspecified]
            cameras.sort { order.firstIndex(of: $0.device.position)! < order.firstIndex(of: $1.device.position)! }
        }
        return cameras
    }

    private func compositePad() throws -> Pad? {
        guard settings.includesComposite, let source = running.plan.compositeSource, let element = running.pipeline[source] else { return nil }
        return try element.staticPad("src")
    }

    private func path(_ fileExtension: String, suffix: String? = nil) -> String {
        let name = settings.captureID + (suffix.map { "-\($0)" } ?? "") + "." + fileExtension
        return URL(fileURLWithPath: settings.directory).appendingPathComponent(name).path
    }

    private func writeSidecar(_ result: PhotoCaptureResult) throws {
        let text = try JSONValue(encoding: result).indentedText + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: result.sidecar), options: .atomic)
    }
}
