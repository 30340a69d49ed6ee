import CaptureGraph
import CaptureModel

/// A camera's controls while the session runs: each change is made on the device in place (no new file,
/// no lost frame), kept for when the camera comes back, and reported as `SessionEvent.controlsChanged`.
extension CaptureSession {
    /// Makes `settings` on a camera (`ControlSettings`); returns the controls written, read back.
    public func setControls(_ settings: [ControlSettings.Setting], camera id: String) throws -> [CameraControl] {
        try running().controls.set(settings, camera: id)
    }

    /// Every control of a camera as it is now (what `pipcam controls` lists), for sliders and menus.
    public func controls(camera id: String) throws -> [CameraControl] {
        try running().controls.all(camera: id)
    }

    /// Puts every control of a camera back to its default; returns them all, read back.
    public func resetControls(camera id: String) throws -> [CameraControl] {
        let (graph, controls) = try running()
        let all = try controls.reset(camera: id)
        eventContinuation.yield(.controlsChanged(camera: id, controls: all, at: graph.elapsed))
        return all
    }

    /// The controls the second camera follows the first camera in, from now on; none stops it following.
    public func matchControls(_ names: [String]) throws {
        try running().controls.match(names)
    }

    private func running() throws -> (graph: RunningGraph, controls: CameraControlKeeper) {
        guard let running = locked({ graph.flatMap { graph in cameraControls.map { (graph, $0) } } }) else {
            throw CaptureError.cameraControl(.sessionNotRunning)
        }
        return running
    }
}
