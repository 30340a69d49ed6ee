import CaptureGraph
import CaptureModel

/// What a program using pipcam calls once, at its entry, before any session: the media library, its
/// plugin registry and the frame-memory policy. It names the library's version and the optional parts
/// this machine lacks, and nothing more of it.
public enum CaptureLibrary {
    public static func start() throws {
        try CaptureRuntime.start()
    }

    /// "GStreamer 1.22.0", read without loading any plugin.
    public static var version: String { CaptureRuntime.libraryVersion }

    /// One sentence per optional element this machine lacks, with what it costs and how to get it.
    public static var absentOptionalElements: [String] { ElementFactory.absentOptionalElements }
}
