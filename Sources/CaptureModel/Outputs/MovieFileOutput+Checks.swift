/// What a movie output must be before anything starts, given what feeds it.
extension MovieFileOutput {
    /// `cameras` and `microphones`: how many of each are connected to it; `streams`: whether a stream
    /// takes its picture (a movie that writes no file still encodes for one).
    func check(cameras: Int, microphones: Int, streams: Bool) throws {
        if cameras == 0 {
            throw CaptureError.invalidConfiguration("there is no camera to record: a recording needs at least one")
        }
        if let bitrate = videoBitrate, !SessionLimits.videoBitrate.contains(bitrate) {
            throw CaptureError.invalidConfiguration("video bitrate \(bitrate) kbit/s is outside \(SessionLimits.text(SessionLimits.videoBitrate))")
        }
        if !writesFile && !streams && microphones > 0 {
            throw CaptureError.invalidConfiguration("microphones need a file or a stream to be heard in: the session has neither")
        }
        if !SessionLimits.audioBitrate.contains(audioBitrate) {
            throw CaptureError.invalidConfiguration("audio bitrate \(audioBitrate) kbit/s is outside \(SessionLimits.text(SessionLimits.audioBitrate))")
        }
        if let segmenting {
            do { _ = try segmenting.checked() } catch { throw CaptureError.invalidConfiguration("\(error)") }
        }
    }
}
