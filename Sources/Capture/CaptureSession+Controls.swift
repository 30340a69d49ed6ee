import CaptureGraph
import CaptureModel

/// A camera's controls while the session runs: each change is made on the device in place (no new file,
/// no lost frame), kept for when the camera comes back, and reported as `SessionEvent.controlsChanged`.
extension CaptureSession {
    /// Makes `settings` on a camera (`ControlSettings`); returns the controls written, read back.
    public func setControls(_ settings: [ControlSettings.Setting], camera id: String) throws -> [CameraControl] {
        let graph = try runningGraph()
        let written = try graph.setControls(settings, camera: id)
        eventContinuation.yield(.controlsChanged(camera: id, controls: written, at: graph.elapsed))
        return written
    }

    /// Puts every control of a camera back to its default; returns them all, read back.
    public func resetControls(camera id: String) throws -> [CameraControl] {
        let graph = try runningGraph()
        let controls = try graph.resetControls(camera: id)
        eventContinuation.yield(.controlsChanged(camera: id, controls: controls, at: graph.elapsed))
        return controls
    }

    /// The controls the second camera follows the first camera in, from now on; none stops it following.
    public func matchControls(_ names: [String]) throws {
        try runningGraph().match(names)
    }

    private func runningGraph() throws -> RunningGraph {
        guard let graph = locked({ graph }) else { throw CaptureError.cameraControl("the session is not running") }
        return graph
    }
}
