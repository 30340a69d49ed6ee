import CaptureGraph
import CaptureModel

/// The clips a configuration's cameras play, read as the recording will before anything starts.
public enum PlayableClips {
    /// A clip that will not play is refused in one line naming its camera and its file, for every
    /// command alike.
    public static func check(_ configuration: SessionConfiguration) throws {
        try configuration.checkClips()
    }
}
