import CaptureModel
import GStreamer

/// A data output's sample, lent to the model's frames and sound buffers: mapped only while read.
struct SampleMemory: FrameMemoryAccess, SampleMemoryAccess {
    let sample: Sample

    func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R {
        try sample.withVideoFrame { frame in
            let planes = (0..<frame.planeCount).map { index in
                VideoPlane(bytes: frame.plane(index), stride: frame.stride(plane: index),
                           width: frame.componentWidth(plane: index), height: frame.componentHeight(plane: index))
            }
            return try body(planes)
        }
    }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try sample.withBytes(body)
    }
}

extension VideoDataFrame {
    /// The frame a sample carries; nil when it has no video geometry or time.
    init?(sample: Sample, cameraID: String, sequenceNumber: Int) {
        guard let info = sample.videoInfo, let time = sample.runningTime else { return nil }
        self.init(cameraID: cameraID, sequenceNumber: sequenceNumber, presentationTime: time, duration: sample.duration,
                  width: info.width, height: info.height, pixelFormat: info.format, memory: SampleMemory(sample: sample))
    }
}

extension AudioDataBuffer {
    /// The sound a sample carries; nil when it has no audio format or time.
    init?(sample: Sample, microphoneID: String, sequenceNumber: Int) {
        guard let caps = sample.caps, let info = AudioInfo(caps: caps), let time = sample.runningTime else { return nil }
        self.init(microphoneID: microphoneID, sequenceNumber: sequenceNumber, presentationTime: time, duration: sample.duration,
                  channels: info.channels, sampleRate: info.rate, sampleFormat: info.format,
                  frameCount: info.bytesPerFrame > 0 ? sample.byteCount / info.bytesPerFrame : 0, memory: SampleMemory(sample: sample))
    }
}
