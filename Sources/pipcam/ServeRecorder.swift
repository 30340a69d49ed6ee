import Capture
import Foundation

/// `pipcam serve`'s recordings: each started on command into a new file in the folder, named by its
/// start time (2026-11-27_14-30-05.mkv), with everything `record` would write beside it (parts,
/// streams, photos' full-size capture).
struct ServeRecorder: Sendable {
    let folder: String
    /// The session as `record` would run it; its movie file's path is replaced by each recording's.
    let recording: SessionConfiguration

    /// Starts a recording; returns its file.
    func start(on session: CaptureSession) async throws -> String {
        let path = nextPath(at: Date())
        var configuration = recording
        configuration.movieFile?.path = path
        try OutputPath.checkRoom(for: configuration, path: path)
        try await RecordingSwitch(session: session).start(configuration)
        return path
    }

    /// Ends the recording; returns its file, finished.
    func stop(on session: CaptureSession) async throws -> String {
        try await RecordingSwitch(session: session).stop()
    }

    /// The folder's file for a recording starting at `date`, in local time; a second recording in the
    /// same second takes the next number.
    func nextPath(at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd_HH-mm-ss"
        let base = "\(folder)/\(formatter.string(from: date))"
        var path = base + ".mkv"
        var number = 2
        while FileManager.default.fileExists(atPath: path) && number < 1000 {
            path = "\(base)-\(number).mkv"
            number += 1
        }
        return path
    }
}
