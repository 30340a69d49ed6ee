import CaptureGraph
import CaptureModel

/// A recording's chapters while it runs: markers set on command, and pauses, each resume a chapter.
/// Each is reported as an event, and the summary lists them (`ChapterKeeper` keeps them).
public struct Chapters: Sendable {
    let session: CaptureSession

    public init(session: CaptureSession) {
        self.session = session
    }

    /// Sets a marker now (a chapter in the file), titled `title` (none: "Marker N").
    public func mark(title: String?) throws -> Marker {
        let graph = try running()
        let marker = try graph.chapters.mark(title, at: graph.elapsed)
        session.eventContinuation.yield(.marker(marker))
        return marker
    }

    /// Pauses the recording: nothing is encoded until it resumes, the preview going on. Returns where
    /// in the file it pauses.
    @discardableResult
    public func pause() throws -> Duration {
        let graph = try running()
        let time = try graph.chapters.pause(at: graph.elapsed)
        session.eventContinuation.yield(.paused(at: time))
        return time
    }

    /// Resumes a paused recording, with a chapter there; returns where in the file, and how long the
    /// pause lasted.
    @discardableResult
    public func resume() throws -> (at: Duration, after: Duration) {
        let graph = try running()
        let resumed = try graph.chapters.resume(at: graph.elapsed)
        session.eventContinuation.yield(.resumed(at: resumed.at, after: resumed.after))
        return resumed
    }

    /// Whether the recording is paused now.
    public var isPaused: Bool {
        guard let graph = session.locked({ session.graph }) else { return false }
        return graph.chapters.isPaused(at: graph.elapsed)
    }

    private func running() throws -> RunningGraph {
        guard let graph = session.locked({ session.graph }) else { throw CaptureError.invalidConfiguration("the session is not running") }
        return graph
    }
}
