import CaptureGraph
import CaptureModel

extension SessionConfiguration {
    /// Reads every clip a camera plays as the recording will, before anything starts: one that will not
    /// play is refused in one line naming its camera and its file, for every command alike.
    public func refuseUnplayableClips() throws {
        try checkClips()
    }
}
