import CaptureModel

extension VideoDataOutput {
    var caps: String {
        var text = "video/x-raw"
        if let pixelFormat { text += ",format=\(pixelFormat.rawValue)" }
        if let size { text += ",width=\(size.width),height=\(size.height)" }
        return text
    }
}

extension AudioDataOutput {
    var caps: String {
        var text = "audio/x-raw,format=\(format.rawValue),layout=interleaved"
        if let channels { text += ",channels=\(channels)" }
        if let sampleRate { text += ",rate=\(sampleRate)" }
        return text
    }
}
