import CaptureGraph
import CaptureModel
import Foundation
import Locking

/// Camera controls while a session records: a description's settings made before the first frame, made
/// again when a camera comes back (its settings as made are kept), changed live, and the second camera
/// following the first in the controls asked. V4L2 controls take changes while the camera streams, so
/// nothing here touches the graph: it only hears when a camera is opened again.
final class CameraControlKeeper: @unchecked Sendable {
    private let configuration: SessionConfiguration
    private let elapsed: @Sendable () -> Duration
    private let report: @Sendable (SessionEvent) -> Void
    /// Each camera's control settings as made (a `locked` value as it was read), by input id.
    private let keptControls = Locked<[String: [ControlSettings.Step]]>([:])
    /// The controls the second camera follows the first in, changed live; and the timer that reads them.
    private let matchedControls = Locked<[String]>([])
    private let matcher = Locked<RepeatingTimer?>(nil)
    /// Held while the follower is read and written, so the timer and a live change write in turn.
    private let following = Locked<Void>(())

    /// `elapsed` gives the recording's time for the events `report` passes on.
    init(configuration: SessionConfiguration, elapsed: @escaping @Sendable () -> Duration, report: @escaping @Sendable (SessionEvent) -> Void) {
        self.configuration = configuration
        self.elapsed = elapsed
        self.report = report
    }

    /// Stops following once the recording has stopped.
    func stop() {
        matcher.withValue { $0?.cancel(); $0 = nil }
    }

    /// Makes every camera's `controls:` before the pipeline plays. A camera that refuses one stops the
    /// start, naming the camera and the control.
    func makeStartingControls() throws {
        for input in configuration.inputs where !input.controls.isEmpty {
            guard let camera = CameraControls(device: input.device), FileManager.default.fileExists(atPath: camera.node) else { continue }
            let (steps, _) = try plan(input.controls, for: input.id, on: camera)
            let written = try camera.apply(steps)
            keptControls.withValue { $0[input.id] = Self.made(steps, readBack: written) }
        }
    }

    /// Changes a camera's controls while it records and reports it; returns the controls written, read
    /// back. A change of the leader is followed at once, not at the next read: the follower then changes
    /// a moment after it (the time of two reads), whatever the timer's phase.
    func set(_ settings: [ControlSettings.Setting], camera id: String) throws -> [CameraControl] {
        let camera = try controls(of: id)
        let (steps, _) = try plan(settings, for: id, on: camera)
        let written = try camera.apply(steps)
        let made = Self.made(steps, readBack: written)
        keptControls.withValue { kept in
            let ids = Set(made.map(\.control.id))
            kept[id] = (kept[id] ?? []).filter { !ids.contains($0.control.id) } + made
        }
        report(.controlsChanged(camera: id, controls: written, at: elapsed()))
        if matcher.value != nil, matchedPair()?.0.id == id { follow() }
        return written
    }

    /// Every control of a camera, as the device reports it now.
    func all(camera id: String) throws -> [CameraControl] {
        try controls(of: id).all()
    }

    /// Puts every control of a camera back to the driver's default, automatic modes first (a manual
    /// value is refused while its automatic mode is on, and comes back once it is off).
    func reset(camera id: String) throws -> [CameraControl] {
        let camera = try controls(of: id)
        let all = try camera.all().filter { !$0.readOnly && $0.kind != .button }
        let switches = ControlSettings.automaticSwitches
        let ordered = all.filter { switches.contains($0.name) } + all.filter { !switches.contains($0.name) }
        for control in ordered { try? camera.set(id: control.id, to: control.defaultValue, name: control.name) }
        keptControls.withValue { $0[id] = nil }
        return try camera.all()
    }

    /// Which controls the second camera follows the first in from now on (none: it stops following),
    /// taken at once.
    func match(_ names: [String]) throws {
        guard matchedPair() != nil else { throw CaptureError.cameraControl(.noMatchedPair) }
        matchedControls.withValue { $0 = names }
        if matcher.value != nil { follow() }
    }

    /// Reads both cameras four times a second and writes the follower's controls when the leader's
    /// differ: a leader that changes by itself (its automatic exposure) is followed within a quarter of
    /// a second. Cheap: a few ioctls per read.
    func startMatching() {
        matchedControls.withValue { $0 = configuration.matchedControls }
        guard matchedPair() != nil else { return }
        let timer = RepeatingTimer(every: .milliseconds(250), label: "pipcam.match") { [weak self] in
            self?.follow()
        }
        matcher.withValue { $0 = timer }
    }

    /// Writes the follower's matched controls where they differ from the leader's. The timer and a live
    /// change may both call it: each reads both cameras, so the later one finds nothing to write.
    private func follow() {
        let names = matchedControls.value
        guard !names.isEmpty, let (leader, follower) = matchedPair(),
              let source = CameraControls(device: leader.device), let target = CameraControls(device: follower.device) else { return }
        following.withValue { _ in
            guard let leading = try? source.all(), let current = try? target.all() else { return }
            let steps = ControlMatch.steps(for: names, leader: leading, follower: current)
            guard !steps.isEmpty, let written = try? target.apply(steps) else { return }
            keptControls.withValue { kept in
                let ids = Set(steps.map(\.control.id))
                kept[follower.id] = (kept[follower.id] ?? []).filter { !ids.contains($0.control.id) } + steps
            }
            report(.controlsChanged(camera: follower.id, controls: written, at: elapsed()))
        }
    }

    /// The first two cameras, when both have controls: the leader and the follower.
    private func matchedPair() -> (DeviceInput, DeviceInput)? {
        let cameras = configuration.inputs.filter { $0.device.isCamera && CameraControls(device: $0.device) != nil }
        return cameras.count >= 2 ? (cameras[0], cameras[1]) : nil
    }

    /// The kept settings of a camera that came back, made again on its (maybe new) node; an optional
    /// camera that joins for the first time gets its description's settings there.
    func remake(of id: String, node: String) {
        let camera = CameraControls(node: node)
        if let steps = keptControls.value[id], !steps.isEmpty {
            _ = try? camera.apply(steps)
        } else if let input = configuration.input(id), !input.controls.isEmpty,
                  let (steps, _) = try? plan(input.controls, for: id, on: camera), let written = try? camera.apply(steps) {
            keptControls.withValue { $0[id] = Self.made(steps, readBack: written) }
        }
    }

    private func controls(of id: String) throws -> CameraControls {
        guard let input = configuration.input(id), input.device.isCamera else {
            throw CaptureError.cameraControl(.noCamera(id))
        }
        guard let camera = CameraControls(device: input.device) else {
            throw CaptureError.cameraControl(.noControls(camera: id))
        }
        return camera
    }

    private func plan(_ settings: [ControlSettings.Setting], for id: String, on camera: CameraControls) throws -> ([ControlSettings.Step], [ControlSettings.Problem]) {
        do {
            return try ControlSettings.plan(settings, camera: id, controls: try camera.all())
        } catch let problem as ControlSettings.Problem {
            throw CaptureError.cameraControl(.settings(problem.description))
        }
    }

    /// The steps as made: a `locked` value replaced by the value written.
    static func made(_ steps: [ControlSettings.Step], readBack: [CameraControl]) -> [ControlSettings.Step] {
        steps.map { step in
            guard step.value == .current, let value = readBack.first(where: { $0.id == step.control.id })?.value else { return step }
            return ControlSettings.Step(control: step.control, value: .fixed(value))
        }
    }
}
