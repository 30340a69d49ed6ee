import Dispatch
import GStreamer

/// Per-buffer access to one microphone while it records (`AVCaptureAudioDataOutput`), interleaved in
/// the format asked for. Like video, a slow consumer loses buffers, never recorded sound.
public struct AudioDataOutput: Sendable {
    public enum SampleFormat: String, Sendable {
        case float32 = "F32LE", int16 = "S16LE"
    }

    public var id: String
    public var format: SampleFormat
    /// nil keeps what the microphone branch carries (one channel).
    public var channels: Int?
    /// nil keeps the session's 48 kHz.
    public var sampleRate: Int?
    public var alwaysDiscardsLateBuffers: Bool
    public let delivery = DataDelivery<AudioDataBuffer>()

    public init(id: String, format: SampleFormat = .float32, channels: Int? = nil, sampleRate: Int? = nil, alwaysDiscardsLateBuffers: Bool = true) {
        self.id = id
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
        self.alwaysDiscardsLateBuffers = alwaysDiscardsLateBuffers
    }

    public func setDelegate(queue: DispatchQueue, _ body: @escaping @Sendable (AudioDataBuffer) -> Void) {
        delivery.setDelegate(queue: queue, body)
    }

    public func buffers() -> AsyncStream<AudioDataBuffer> { delivery.stream() }

    var caps: String {
        var text = "audio/x-raw,format=\(format.rawValue),layout=interleaved"
        if let channels { text += ",channels=\(channels)" }
        if let sampleRate { text += ",rate=\(sampleRate)" }
        return text
    }
}

/// One buffer of sound from an audio data output, read in place inside `withSamples`.
public struct AudioDataBuffer: Sendable {
    public let microphoneID: String
    public let sequenceNumber: Int
    public let presentationTime: Duration
    public let duration: Duration?
    public let info: AudioInfo
    let sample: Sample

    init?(sample: Sample, microphoneID: String, sequenceNumber: Int) {
        guard let caps = sample.caps, let info = AudioInfo(caps: caps), let time = sample.runningTime else { return nil }
        self.sample = sample
        self.microphoneID = microphoneID
        self.sequenceNumber = sequenceNumber
        self.presentationTime = time
        self.duration = sample.duration
        self.info = info
    }

    public var channels: Int { info.channels }
    public var sampleRate: Int { info.rate }
    public var frameCount: Int { info.bytesPerFrame > 0 ? sample.byteCount / info.bytesPerFrame : 0 }

    /// The interleaved samples in place; valid only inside `body`.
    public func withSamples<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try sample.withBytes(body)
    }

    /// The samples as floats, interleaved (converted from 16-bit if need be).
    public func floatSamples() throws -> [Float] {
        try withSamples { bytes in
            switch info.format {
            case "F32LE": return Array(bytes.bindMemory(to: Float.self))
            case "S16LE": return bytes.bindMemory(to: Int16.self).map { Float($0) / 32768 }
            default: return []
            }
        }
    }
}
