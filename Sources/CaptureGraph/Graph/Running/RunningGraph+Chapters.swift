import CaptureModel
import GStreamer
import LinuxIO

/// The markers set and the pauses taken while a graph records.
struct RecordingChapters: Sendable {
    var markers: [Marker] = []
    var pauses = 0
}

/// Markers and pauses: both are about the file's own time, which a pause stops. A marker is kept beside
/// the file being written (`MarkerJournal`) the moment it is set, and becomes a chapter when the file is
/// ended (`MatroskaChapters`); a pause holds back what every encoder would get (`PauseGate`), the
/// cameras, microphones and preview going on.
extension RunningGraph {
    /// Sets a marker now, titled `title` (none: "Marker N").
    package func mark(_ title: String?) throws -> Marker {
        guard configuration.movieFile?.writesFile == true else { throw CaptureError.invalidConfiguration("nothing is being recorded: a marker needs a file") }
        let time = pauseGate.fileTime(of: elapsed)
        let marker = Marker(title: try Marker.title(title, number: chapters.value.markers.count + 1), time: time)
        try keep(marker)
        return marker
    }

    /// Pauses the recording now; returns where in the file it pauses.
    package func pause() throws -> Duration {
        guard configuration.movieFile?.writesFile == true else { throw CaptureError.invalidConfiguration("nothing is being recorded: there is nothing to pause") }
        // The streams share the file's encoders: paused, their viewers would see the picture stop.
        if let on = streams?.status.first(where: { $0.state != .stopped }) {
            throw CaptureError.invalidConfiguration("stream \(on.stream) is on: a pause would stop it for its viewers too (turn it off first)")
        }
        let now = elapsed
        guard pauseGate.pause(at: now) else { throw CaptureError.invalidConfiguration("the recording is paused already") }
        chapters.withValue { $0.pauses += 1 }
        return pauseGate.fileTime(of: now)
    }

    /// Resumes the recording now, with a chapter where it resumes; returns where in the file, and how
    /// long the pause lasted.
    package func resume() throws -> (at: Duration, after: Duration) {
        let now = elapsed
        guard let length = pauseGate.resume(at: now) else { throw CaptureError.invalidConfiguration("the recording is not paused") }
        let time = pauseGate.fileTime(of: now)
        try keep(Marker(title: "Resumed after \(RecordingSummary.seconds(length))", time: time))
        return (time, length)
    }

    /// How much the file holds by now: the time since the start, less every pause.
    package var recorded: Duration { pauseGate.fileTime(of: elapsed) }

    /// Whether the recording is paused now.
    package var isPaused: Bool { pauseGate.state(at: elapsed).pausedSince != nil }

    private func keep(_ marker: Marker) throws {
        try MarkerJournal.append(marker, for: writer.currentPath)
        chapters.withValue { $0.markers.append(marker) }
    }
}
