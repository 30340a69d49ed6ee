import CaptureGraph
import CaptureModel
import Foundation

/// Recording on command while a session runs (`AVCaptureMovieFileOutput.startRecording(to:)` and
/// `stopRecording()`): the cameras stay open between recordings, for the preview and the web page.
/// Each is a structural commit: the graph with the file is built before the one without it stops, so
/// the preview pauses for a moment and the file starts with the cameras already running.
public struct RecordingSwitch: Sendable {
    let session: CaptureSession

    public init(session: CaptureSession) {
        self.session = session
    }

    /// Adds `recording`'s movie file, its connections and its streams, and starts writing. Refused when
    /// a recording is under way.
    public func start(_ recording: SessionConfiguration) async throws {
        guard let movie = recording.movieFile else { throw CaptureError.invalidConfiguration("a recording needs a movie file") }
        guard session.configuration.movieFile == nil else { throw CaptureError.invalidConfiguration("already recording") }
        if movie.writesFile { session.uploads.repairUnfinished(besides: movie.path) { session.eventContinuation.yield($0) } }
        try await session.update { configuration in
            guard configuration.movieFile == nil else { return }
            configuration.movieFile = movie
            configuration.streams = recording.streams
            // Each camera and microphone records as it is now: one turned off stays off.
            for var connection in recording.connections where connection.outputID == movie.id {
                let input = connection.inputPorts[0].inputID
                let others = configuration.connections.filter { $0.inputPorts.contains { $0.inputID == input } }
                if !others.isEmpty { connection.isEnabled = others.contains(where: \.isEnabled) }
                configuration.connections.append(connection)
            }
        }
    }

    /// Ends the recording: its file is finished (the `segmentFinished` event carries its summary) and the
    /// session goes on without it. Returns the file.
    @discardableResult
    public func stop() async throws -> String {
        guard let movie = session.configuration.movieFile else { throw CaptureError.invalidConfiguration("nothing is being recorded") }
        try await session.update { configuration in
            configuration.removeOutput(id: movie.id)
            configuration.streams = []
        }
        return movie.path
    }
}
