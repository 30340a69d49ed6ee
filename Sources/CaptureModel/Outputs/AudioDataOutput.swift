import Dispatch

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
}

/// One buffer of sound from an audio data output, read in place inside `withSamples`.
public struct AudioDataBuffer: Sendable {
    public let microphoneID: String
    public let sequenceNumber: Int
    public let presentationTime: Duration
    public let duration: Duration?
    public let channels: Int
    public let sampleRate: Int
    /// The sample format's name ("F32LE", "S16LE", …).
    public let sampleFormat: String
    /// Frames (one sample per channel) in the buffer.
    public let frameCount: Int
    /// The buffer the sound came in: the graph maps it only while `withSamples` runs.
    let memory: any SampleMemoryAccess

    package init(microphoneID: String, sequenceNumber: Int, presentationTime: Duration, duration: Duration?, channels: Int,
                 sampleRate: Int, sampleFormat: String, frameCount: Int, memory: any SampleMemoryAccess) {
        self.microphoneID = microphoneID
        self.sequenceNumber = sequenceNumber
        self.presentationTime = presentationTime
        self.duration = duration
        self.channels = channels
        self.sampleRate = sampleRate
        self.sampleFormat = sampleFormat
        self.frameCount = frameCount
        self.memory = memory
    }

    public func withSamples<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try memory.withBytes(body)
    }

    public func floatSamples() throws -> [Float] {
        try withSamples { bytes in
            switch sampleFormat {
            case "F32LE": return Array(bytes.bindMemory(to: Float.self))
            case "S16LE": return bytes.bindMemory(to: Int16.self).map { Float($0) / 32768 }
            default: return []
            }
        }
    }
}

/// How the graph lends a buffer of sound, which the model never holds as a GStreamer buffer.
package protocol SampleMemoryAccess: Sendable {
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R
}

extension AudioDataOutput: TakesConnections {
    /// One microphone's sound, so exactly one microphone.
    package func reasonCannotTake(_ connection: Connection, besides taken: [Connection]) -> String? {
        if connection.mediaType != .audio { return "audio data output '\(id)' takes a microphone port" }
        if !taken.isEmpty || connection.inputPorts.count > 1 { return "audio data output '\(id)' takes exactly one microphone" }
        return nil
    }
}
