import Capture
import Foundation

/// Turns the command line's choices (a description file, or devices found on the machine) into a
/// session configuration: the one place `SessionOptions` gets its sessions from.
enum SessionLoading {
    /// Looks for devices only when the description names real ones (probing takes a moment).
    static func configuration(_ description: PipelineDescription, outputPath: String, standIns: Bool) throws -> (SessionConfiguration, notes: [String]) {
        let needsDevices = (description.cameras + description.microphones).contains { entry in
            switch entry.spec {
            case .syntheticCamera, .syntheticMicrophone, .syncMicrophone, .file, .screen, .desktopDefault, .cameraSound: return false
            default: return true
            }
        }
        let devices = needsDevices ? CaptureDevices.list() : []
        return try description.configuration(devices: devices, outputPath: outputPath, standIns: standIns,
                                              soundServerSources: CaptureDevices.soundServerSourceNames)
    }

    /// The first two cameras and two microphones found, or those named.
    static func fromDevices(cameraIDs: [String], microphoneIDs: [String], outputPath: String) throws -> SessionConfiguration {
        let devices = CaptureDevices.list()
        let cameras = try pick(cameraIDs, from: devices.filter(\.isCamera), kind: "camera", limit: 2)
        let microphones = try pick(microphoneIDs, from: devices.filter { !$0.isCamera }, kind: "microphone", limit: 2)
        guard cameras.count >= 2 else {
            let found = cameras.isEmpty ? "no camera" : "only " + cameras.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
            throw CLIError("pipcam records two cameras, and found \(found)\(CameraAccess.whyNotFound()); to try it without cameras run: pipcam record out.mkv --pipeline pipelines/demo.yaml")
        }
        return SessionConfiguration(recording: cameras + microphones, to: MovieFileOutput(path: outputPath))
    }

    private static func pick(_ ids: [String], from devices: [CaptureDevice], kind: String, limit: Int) throws -> [CaptureDevice] {
        guard !ids.isEmpty else { return Array(devices.prefix(limit)) }
        return try ids.map { id in
            if kind == "microphone", id == "default" {
                guard SoundServer.isRunning() else { throw CLIError("--mic default is the desktop's default input, and no PipeWire or PulseAudio server is running") }
                return .soundServerMicrophone(id: "default", source: nil)
            }
            if kind == "microphone", !devices.contains(where: { $0.id == id }), CaptureDevices.soundServerSourceNames().contains(id) {
                return .soundServerMicrophone(id: id, source: id)
            }
            guard let device = devices.first(where: { $0.id == id || $0.node == id }) else {
                // The device monitor leaves out cameras this user may not open: say so rather than "no camera".
                if kind == "camera", id.hasPrefix("/dev/"), let problem = CameraAccess.problem(opening: id) { throw CLIError(problem.description) }
                let present = devices.map(\.id)
                throw CLIError("no \(kind) '\(id)' (present: \(present.isEmpty ? "none" : present.joined(separator: ", ")); see pipcam devices)")
            }
            return device
        }
    }
}
