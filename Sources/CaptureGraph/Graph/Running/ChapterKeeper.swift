import CaptureModel
import GStreamer
import LinuxIO
import Locking

/// A graph's markers and pauses, both about the file's own time, which a pause stops. A marker is kept
/// beside the file being written (`MarkerJournal`) the moment it is set, and becomes a chapter when the
/// file is ended (`MatroskaChapters`); a pause holds back what every encoder would get (`PauseGate`),
/// the cameras, microphones and preview going on; each resume is a chapter.
package final class ChapterKeeper: @unchecked Sendable {
    private struct State {
        var chapters: [Marker] = []
        /// Markers set by the user (resumes are chapters too, but not numbered with them).
        var marked = 0
        var pauses = 0
        /// The file is being ended: what is set now would not reach it.
        var closed = false
    }

    /// On every encoder's input.
    private let gate: PauseGate
    private let state = Locked(State())
    private let writesFile: Bool
    /// The file being written now (the part, in a recording in parts).
    private let currentFile: @Sendable () -> String
    /// A stream that is on, if any: it shares the file's encoders.
    private let streamOn: @Sendable () -> String?

    /// Puts the gate on every encoder's input, first there, so the probes added after it (the time limit)
    /// see the file's times.
    init(plan: GraphPlan, pipeline: Pipeline, writer: FileWriter, streams: StreamWriter?) {
        writesFile = plan.mux != nil
        gate = PauseGate(frameRate: plan.frameRate > 0 ? Fraction(rate: plan.frameRate) : nil)
        currentFile = { writer.currentPath }
        streamOn = { streams?.status.first { $0.state != .stopped }?.stream }
        for encoder in plan.encoders {
            if let pad = try? pipeline[encoder]?.staticPad("sink") { gate.attach(to: pad) }
        }
    }

    /// Sets a marker at running time `now`, titled `title` (none: "Marker N").
    package func mark(_ title: String?, at now: Duration) throws -> Marker {
        try checkRecording("a marker needs a file")
        let marker = Marker(title: try Marker.title(title, number: state.value.marked + 1), time: gate.fileTime(of: now))
        try keep(marker)
        state.withValue { $0.marked += 1 }
        return marker
    }

    /// Pauses the recording at running time `now`; returns where in the file it pauses.
    package func pause(at now: Duration) throws -> Duration {
        try checkRecording("there is nothing to pause")
        // Paused, a stream's viewers would see its picture stop.
        if let stream = streamOn() { throw CaptureError.invalidConfiguration("stream \(stream) is on: a pause would stop it for its viewers too (turn it off first)") }
        guard gate.pause(at: now) else { throw CaptureError.invalidConfiguration("the recording is paused already") }
        state.withValue { $0.pauses += 1 }
        return gate.fileTime(of: now)
    }

    /// Resumes the recording at running time `now`, with a chapter there; returns where in the file,
    /// and how long the pause lasted. The chapter is kept first: one that cannot be is a resume refused.
    package func resume(at now: Duration) throws -> (at: Duration, after: Duration) {
        try checkRecording("there is nothing to resume")
        guard let since = gate.state(at: now).pausedSince else { throw CaptureError.invalidConfiguration("the recording is not paused") }
        // Inside the pause, the file's time is where it began: where the recording goes on.
        let time = gate.fileTime(of: now), length = max(.zero, now - since)
        try keep(Marker(title: "Resumed after \(RecordingSummary.seconds(length))", time: time))
        return (time, gate.resume(at: now) ?? length)
    }

    /// Whether the recording is paused at running time `now`.
    package func isPaused(at now: Duration) -> Bool { gate.state(at: now).pausedSince != nil }

    /// How much the file holds at running time `now`: the time since the start, less every pause.
    package func recorded(at now: Duration) -> Duration { gate.fileTime(of: now) }

    /// The file is being ended: markers, pauses and resumes are refused from now on.
    func close() { state.withValue { $0.closed = true } }

    /// The status's part: how long the pause under way has lasted, what the file holds, the markers set.
    func fill(_ status: inout LiveStatus) {
        // A pause begins at the next picture: up to a frame after it was asked for.
        status.paused = gate.state(at: status.elapsed).pausedSince.map { max(.zero, status.elapsed - $0) }
        status.recorded = gate.fileTime(of: status.elapsed)
        status.markers = state.value.chapters.count
    }

    /// The summary's part, once the graph has stopped at running time `end`.
    func fill(_ summary: inout RecordingSummary, end: Duration) {
        let kept = state.value
        summary.markers = kept.chapters
        summary.pauses = kept.pauses
        summary.pausedTime = gate.state(at: end).total
    }

    private func checkRecording(_ what: String) throws {
        guard writesFile else { throw CaptureError.invalidConfiguration("nothing is being recorded: \(what)") }
        guard !state.value.closed else { throw CaptureError.invalidConfiguration("the recording is ending: \(what)") }
    }

    private func keep(_ marker: Marker) throws {
        try MarkerJournal.append(marker, for: currentFile())
        state.withValue { $0.chapters.append(marker) }
    }
}
