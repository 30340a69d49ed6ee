/// What a session's streams must be before anything starts: each named once, with a picture to send.
extension StreamOutput {
    static func check(_ streams: [StreamOutput], movie: MovieFileOutput?) throws {
        var names = Set<String>()
        for stream in streams {
            guard names.insert(stream.name).inserted else { throw CaptureError.streamOutput(name: stream.name, .duplicateName) }
            guard movie != nil else {
                throw CaptureError.streamOutput(name: stream.name, .malformed("a stream sends the composed picture: the session needs a movie output"))
            }
            if let bitrate = stream.videoBitrate, !SessionLimits.videoBitrate.contains(bitrate) {
                throw CaptureError.streamOutput(name: stream.name, .malformed("bitrate \(bitrate) kbit/s is outside \(SessionLimits.text(SessionLimits.videoBitrate))"))
            }
            if let size = stream.size, !size.isValid {
                throw CaptureError.streamOutput(name: stream.name, .malformed("size \(size.width)x\(size.height) is not an even size within \(SessionLimits.text(SessionLimits.cameraWidth)) x \(SessionLimits.text(SessionLimits.cameraHeight))"))
            }
        }
    }
}
