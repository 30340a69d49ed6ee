import Capture
import Foundation

/// The line shown over the preview: a REC mark and the time while recording, each camera's frame rate,
/// each microphone's meter (and its clipping or silence), and the system's pressure level when it is
/// above nominal. Never part of the recording.
struct PreviewOverlay {
    let recording: Bool
    private var previous: (elapsed: Duration, frames: [String: Int])?

    init(recording: Bool) { self.recording = recording }

    /// `pressure` is the latest level sampled, if any; it shows when above nominal.
    mutating func text(for status: LiveStatus, pressure: PressureLevel?) -> String {
        var parts: [String] = []
        if recording {
            let seconds = Int(status.elapsed.seconds)
            parts.append(String(format: "● REC %02d:%02d", seconds / 60, seconds % 60))
        }
        if let previous, status.elapsed > previous.elapsed {
            let interval = (status.elapsed - previous.elapsed).seconds
            parts += status.frames.map { camera in
                "\(camera.inputID) \(Int((Double(camera.count - (previous.frames[camera.inputID] ?? 0)) / interval).rounded())) fps"
            }
        }
        parts += status.soundLevels.keys.sorted().map { id in
            SoundMeter.text(id, status.soundLevels[id]!, bar: true) + (status.soundAlerts[id].map { " " + $0.uppercased() } ?? "")
        }
        if let level = pressure, level != .nominal { parts.append("pressure \(level)") }
        previous = (status.elapsed, Dictionary(uniqueKeysWithValues: status.frames.map { ($0.inputID, $0.count) }))
        return parts.joined(separator: "  ")
    }
}
