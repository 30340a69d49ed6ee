import Capture
import Foundation
import Locking

/// Carries out `ControlCommand`s on a running session and answers each (`ControlAnswer`):
/// `{"ok":true,…state…}` or `{"ok":false,"error":"…"}`. Every change is a live commit (pad positions,
/// valves, capture sizes), so the recording goes on in the same file without losing a frame.
struct ControlCommandRunner: Sendable {
    let session: CaptureSession
    /// Where photos go; nil when the command was started without `--photos`.
    let photoDirectory: String?
    let photoOptions: PhotoOptions
    /// `pipcam serve`'s recordings on command; nil for `record` and `preview`.
    var recorder: ServeRecorder?
    /// The last pressure sample's level and throttle step, for the status.
    let pressure = Locked<(level: PressureLevel, step: Int)?>(nil)

    /// Cameras and microphones in the order of the session's inputs: what keys 1/2 and m/n refer to.
    var cameraIDs: [String] { session.configuration.inputs.filter(\.device.isCamera).map(\.id) }
    var microphoneIDs: [String] { session.configuration.inputs.filter { !$0.device.isCamera }.map(\.id) }

    /// Runs one command and returns its answer.
    func answer(_ command: ControlCommand) async -> ControlAnswer {
        do {
            var extra: [String: JSONValue] = [:]
            switch command {
            case .swap:
                try await session.swapCameras()
            case .corner(let corner):
                let next = corner ?? Self.next(session.configuration.layout.corner, in: [.topLeft, .topRight, .bottomRight, .bottomLeft])
                try await session.update { $0.layout.corner = next }
            case .layout(let kind):
                let next = kind ?? Self.next(session.configuration.layout.kind, in: Layout.Kind.allCases)
                try await session.update { $0.layout.kind = next }
            case .camera(let id, let enabled):
                try check(id, isCamera: true)
                try await session.setInputEnabled(enabled ?? !isEnabled(id), inputID: id)
            case .mute(let id, let muted):
                try check(id, isCamera: false)
                try await session.setInputEnabled(!(muted ?? isEnabled(id)), inputID: id)
            case .sound(let id, let change):
                try await changeSound(id, change)
            case .stream(let id, let enabled):
                extra["streaming"] = .bool(try session.setStreamEnabled(enabled, stream: id))
            case .marker(let title):
                let marker = try Chapters(session: session).mark(title: title)
                extra["marker"] = .object(["title": .string(marker.title), "time": .number(marker.time.seconds, places: 3)])
            case .pause(let pausing):
                extra.merge(try pause(pausing)) { $1 }
            case .photo:
                guard let photoDirectory else { throw CLIError("photos are off: start with --photos DIR") }
                let result = try await session.capturePhoto(photoOptions.settings(directory: photoDirectory), events: PhotoOptions.show)
                extra["photo"] = .string(result.sidecar)
            case .record:
                guard let recorder else {
                    throw CLIError(session.configuration.movieFile == nil ? "this pipcam only previews: record with pipcam record or pipcam serve" : "already recording")
                }
                extra["started"] = .string(try await recorder.start(on: session))
            case .stop:
                if let recorder {
                    extra["finished"] = .string(try await recorder.stop(on: session))
                    break
                }
                // Answered first, so the asker hears back before the socket closes with the session.
                Task { _ = try? await session.stopRunning() }
                extra["stopping"] = true
            case .status:
                break
            case .controls(let camera):
                if let camera { try check(camera, isCamera: true) }
                var listing: [String: JSONValue] = [:]
                for id in camera.map({ [$0] }) ?? cameraIDs {
                    do {
                        listing[id] = try JSONValue(encoding: session.controls(camera: id))
                    } catch where camera == nil {
                        // Asked for all: a camera without controls (drawn, a clip, on the network) lists none.
                        listing[id] = .array([])
                    }
                }
                extra["controls"] = .object(listing)
            case .match(let names):
                try session.matchControls(names)
                extra["match"] = .array(names.map { .string($0) })
            case .control(let camera, let change):
                try check(camera, isCamera: true)
                let controls = switch change {
                case .set(let settings): try session.setControls(settings, camera: camera)
                case .reset: try session.resetControls(camera: camera)
                }
                extra["controls"] = .object(Dictionary(controls.compactMap { control in control.value.map { (control.name, JSONValue.number(Double($0), places: 0)) } }) { $1 })
            }
            return .carriedOut(state().merging(extra) { $1 })
        } catch {
            return .refused("\(error)")
        }
    }

    /// Changes a microphone's processing, when the change needs no rebuild.
    private func changeSound(_ id: String, _ change: SoundChange) async throws {
        try check(id, isCamera: false)
        guard let index = session.configuration.inputs.firstIndex(where: { $0.id == id }) else { throw CLIError("no microphone '\(id)'") }
        var candidate = session.configuration
        let next = try change.applied(to: candidate.inputs[index].sound)
        candidate.inputs[index].sound = next
        guard session.changesOnlyLiveSettings(to: candidate) else {
            throw CLIError("\(id): noise suppression, and a high-pass or limiter turned on or off, are set in the description (gain, offset, and the cut and ceiling already set change live)")
        }
        try await session.update { $0.inputs[index].sound = next }
    }

    /// Pauses (true) or resumes (false) the recording, nil the other way round; where in the file.
    private func pause(_ pausing: Bool?) throws -> [String: JSONValue] {
        let chapters = Chapters(session: session)
        if pausing ?? !chapters.isPaused { return ["paused-at": .number(try chapters.pause().seconds, places: 3)] }
        return ["resumed-at": .number(try chapters.resume().at.seconds, places: 3)]
    }

    /// What the session shows and hears now.
    private func state() -> [String: JSONValue] {
        let configuration = session.configuration
        let layout = configuration.layout
        var state: [String: JSONValue] = [
            "layout": .string(layout.kind.rawValue), "corner": .string(layout.corner.rawValue),
            "main": .string(layout.mainInputID ?? cameraIDs.first ?? ""),
            "cameras": .object(Dictionary(uniqueKeysWithValues: cameraIDs.map { ($0, .bool(isEnabled($0))) })),
            "microphones": .object(Dictionary(uniqueKeysWithValues: microphoneIDs.filter(isConnected).map { ($0, .bool(isEnabled($0))) })),
            "recording": .bool(configuration.movieFile != nil),
        ]
        if let status = session.liveStatus() {
            state["elapsed"] = .number(status.elapsed.seconds, places: 3)
            // Inputs whose device is away, with the recording time it went.
            state["lost"] = .object(Dictionary(uniqueKeysWithValues: status.away.map { ($0.inputID, .number($0.since.seconds, places: 3)) }))
            state["dropped"] = .integer(status.dropped)
            // Seconds of each microphone's sound lost on its way into the file, where any was.
            state["sound-lost"] = .object(status.soundLost.mapValues { .number($0.seconds, places: 3) })
            if let size = status.fileSize { state["size"] = .integer(Int(size)) }
            state["streams"] = .object(Dictionary(status.streams.map { ($0.stream, JSONValue.string($0.state.rawValue)) }) { $1 })
            state["levels"] = status.soundLevelsJSON
            state["sound-alerts"] = .object(status.soundAlerts.mapValues { .string($0) })
            state["paused"] = status.paused.map { .number($0.seconds, places: 3) } ?? .bool(false)
            if let recorded = status.recorded { state["recorded"] = .number(recorded.seconds, places: 3) }
            state["markers"] = .integer(status.markers)
            if let uploads = session.uploads.status {
                state["uploads"] = .object(["pending": .integer(uploads.pending), "failing": .integer(uploads.failing), "done": .integer(uploads.done)])
            }
        }
        state["sound"] = .object(Dictionary(uniqueKeysWithValues: configuration.inputs.filter { !$0.device.isCamera && isConnected($0.id) }.map { ($0.id, $0.sound.json) }))
        if let path = configuration.movieFile?.path {
            state["file"] = .string(path)
            if let free = FreeSpace.bytes(at: path) { state["free"] = .integer(Int(free)) }
        }
        if let pressure = pressure.value {
            state["pressure"] = .object(["level": .string(pressure.level.description), "step": .integer(pressure.step)])
        }
        return state
    }

    private func isConnected(_ id: String) -> Bool {
        session.configuration.connections.contains { $0.inputPorts.contains { $0.inputID == id } }
    }

    /// An input counts as on while any of its connections is.
    private func isEnabled(_ id: String) -> Bool {
        session.configuration.connections.contains { $0.isEnabled && $0.inputPorts.contains { $0.inputID == id } }
    }

    private func check(_ id: String, isCamera: Bool) throws {
        let known = isCamera ? cameraIDs : microphoneIDs.filter(isConnected)
        guard known.contains(id) else {
            let kind = isCamera ? "camera" : "microphone"
            throw CLIError("no \(kind) '\(id)' in the session (\(kind)s: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
    }

    private static func next<T: Equatable>(_ value: T, in order: [T]) -> T {
        order[((order.firstIndex(of: value) ?? -1) + 1) % order.count]
    }
}
