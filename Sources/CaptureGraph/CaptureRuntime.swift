import CaptureModel
import GStreamer

/// What the capture layer needs once per process before anything else runs: GStreamer, its plugin
/// registry and the frame-memory policy. The program calls `start()` once, at its entry; the command line
/// knows nothing more of GStreamer than the version it names.
public enum CaptureRuntime {
    public static func start() throws {
        FrameMemory.recycleFreedFrames()
        try Gst.initialize()
    }

    /// "GStreamer 1.22.0", read without loading any plugin.
    public static var libraryVersion: String { Gst.version }
}
