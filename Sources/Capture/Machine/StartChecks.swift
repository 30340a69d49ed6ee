import CaptureModel
import LinuxIO

/// What a session's network and folders are asked before anything starts, so a mistake is one line at
/// once rather than a stream or camera that retries while the recording runs: each stream's host
/// resolves, each HLS folder is there (made when missing) and writable, each required network camera
/// answers. Blocks for seconds at most: run it off the cooperative pool.
enum StartChecks {
    static func check(_ configuration: SessionConfiguration) throws {
        try HostLookup.check(configuration.streams)
        try StreamFolders.prepare(configuration.streams)
        try NetworkCameras.check(configuration)
    }
}
