import CaptureGraph
import CaptureModel

/// Markers and pauses while recording: each reported as an event, and listed in the summary.
extension CaptureSession {
    /// Sets a marker now (a chapter in the file), titled `title` (none: "Marker N").
    public func addMarker(title: String?) throws -> Marker {
        let marker = try runningGraph().mark(title)
        eventContinuation.yield(.marker(marker))
        return marker
    }

    /// Pauses the recording: nothing is encoded until it resumes, the preview going on. Returns where
    /// in the file it pauses.
    @discardableResult
    public func pauseRecording() throws -> Duration {
        let time = try runningGraph().pause()
        eventContinuation.yield(.paused(at: time))
        return time
    }

    /// Resumes a paused recording, with a chapter there; returns where in the file, and how long the
    /// pause lasted.
    @discardableResult
    public func resumeRecording() throws -> (at: Duration, after: Duration) {
        let resumed = try runningGraph().resume()
        eventContinuation.yield(.resumed(at: resumed.at, after: resumed.after))
        return resumed
    }

    /// Whether the recording is paused now.
    public var isPaused: Bool { locked { graph }?.isPaused ?? false }

    private func runningGraph() throws -> RunningGraph {
        guard let graph = locked({ graph }) else { throw CaptureError.invalidConfiguration("the session is not running") }
        return graph
    }
}
