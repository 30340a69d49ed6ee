import Foundation

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
    public let width: Int
    public let height: Int
    /// The pixel format's name ("BGRA", "NV12", …).
    public let pixelFormat: String
    /// The buffer the frame came in: the graph maps it only while `withPlanes` runs.
    let memory: any FrameMemoryAccess

    package init(cameraID: String, sequenceNumber: Int, presentationTime: Duration, duration: Duration?,
                 width: Int, height: Int, pixelFormat: String, memory: any FrameMemoryAccess) {
        self.cameraID = cameraID
        self.sequenceNumber = sequenceNumber
        self.presentationTime = presentationTime
        self.duration = duration
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.memory = memory
    }

    /// The frame's planes, mapped for reading; valid only inside `body`.
    public func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R {
        try memory.withPlanes(body)
    }

    public func copyPlanes() throws -> [Data] {
        try withPlanes { planes in planes.map { Data($0.bytes) } }
    }
}

/// How the graph lends a frame's memory, which the model never holds as a GStreamer buffer.
package protocol FrameMemoryAccess: Sendable {
    func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R
}

public struct VideoPlane {
    public let bytes: UnsafeRawBufferPointer
    public let stride: Int
    public let width: Int
    public let height: Int

    package init(bytes: UnsafeRawBufferPointer, stride: Int, width: Int, height: Int) {
        self.bytes = bytes
        self.stride = stride
        self.width = width
        self.height = height
    }
}
