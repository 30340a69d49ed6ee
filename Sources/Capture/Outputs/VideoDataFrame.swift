import Foundation
import GStreamer

/// One frame from a video data output. It holds the camera's buffer (shared, never copied) until the
/// last copy of the frame goes away; its pixels are read in place inside `withPlanes`.
public struct VideoDataFrame: Sendable {
    /// The id of the camera (device) the frame comes from.
    public let cameraID: String
    /// Counts every frame that reached the output, delivered or not: a gap is a discarded frame.
    public let sequenceNumber: Int
    /// Running time on the session's clock, the same scale as the recording's timestamps.
    public let presentationTime: Duration
    public let duration: Duration?
    public let info: VideoInfo
    let sample: Sample

    init?(sample: Sample, cameraID: String, sequenceNumber: Int) {
        guard let info = sample.videoInfo, let time = sample.runningTime else { return nil }
        self.sample = sample
        self.cameraID = cameraID
        self.sequenceNumber = sequenceNumber
        self.presentationTime = time
        self.duration = sample.duration
        self.info = info
    }

    public var width: Int { info.width }
    public var height: Int { info.height }
    public var pixelFormat: String { info.format }

    /// Maps the frame and hands its planes to `body`; the bytes are valid only inside it.
    public func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R {
        try sample.withVideoFrame { frame in
            let planes = (0..<frame.planeCount).map { index in
                VideoPlane(bytes: frame.plane(index), stride: frame.stride(plane: index),
                           width: frame.componentWidth(plane: index), height: frame.componentHeight(plane: index))
            }
            return try body(planes)
        }
    }

    /// The planes copied out, for keeping beyond a callback.
    public func copyPlanes() throws -> [Data] {
        try withPlanes { planes in planes.map { Data($0.bytes) } }
    }
}

/// One mapped plane: `height` rows of `stride` bytes, of which the first `width` samples are the picture.
public struct VideoPlane {
    public let bytes: UnsafeRawBufferPointer
    public let stride: Int
    public let width: Int
    public let height: Int
}
