import CaptureGraph

/// A finished recording as an MP4, for editors that do not read Matroska: pictures copied as they are,
/// the sound made AAC, written beside the target and renamed into place at the end.
public enum RecordingExport {
    /// `progress` hears the share done (0…1) about once a second.
    public static func toMP4(from input: String, to output: String, progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws {
        try await MP4Export.run(from: input, to: output, progress: progress)
    }
}
