import Dispatch

/// Per-frame access to one camera while it records (`AVCaptureVideoDataOutput`). Frames come from a
/// branch of their own after the camera's tee: converting, scaling and a slow consumer cost the
/// recording nothing, and late frames are discarded by default rather than queued.
public struct VideoDataOutput: Sendable {
    public var id: String
    /// nil delivers frames as the camera captures them, with no conversion at all (the cheapest tap).
    public var pixelFormat: VideoPixelFormat?
    /// nil delivers the captured size; a smaller size is scaled before conversion, which is cheap.
    public var size: PixelSize?
    /// On (the default), a frame that arrives while the consumer is still busy is dropped; off, up to
    /// `DataDelivery.backlog` frames wait, then the tap's queue drops. The recording never waits either way.
    public var alwaysDiscardsLateVideoFrames: Bool
    /// Shared by every copy of this output, so consumers stay attached across commits.
    public let delivery = DataDelivery<VideoDataFrame>()

    public init(id: String, pixelFormat: VideoPixelFormat? = .bgra, size: PixelSize? = nil, alwaysDiscardsLateVideoFrames: Bool = true) {
        self.id = id
        self.pixelFormat = pixelFormat
        self.size = size
        self.alwaysDiscardsLateVideoFrames = alwaysDiscardsLateVideoFrames
    }

    /// Calls `body` on `queue` with each frame (`setSampleBufferDelegate(_:queue:)`). The frame's planes
    /// are mapped only inside `VideoDataFrame.withPlanes`.
    public func setDelegate(queue: DispatchQueue, _ body: @escaping @Sendable (VideoDataFrame) -> Void) {
        delivery.setDelegate(queue: queue, body)
    }

    /// Every frame from now on, until the session stops.
    public func frames() -> AsyncStream<VideoDataFrame> { delivery.stream() }
}

/// The pixel formats a video data output delivers.
public enum VideoPixelFormat: String, Sendable, CaseIterable {
    case bgra = "BGRA", nv12 = "NV12", i420 = "I420", gray8 = "GRAY8"
}

public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }

    /// "160x90" → 160 by 90.
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (2...8192).contains($0) }) else { return nil }
        self.init(width: parts[0], height: parts[1])
    }
}

extension VideoDataOutput: TakesConnections {
    /// One camera's frames, so exactly one camera.
    package func reasonCannotTake(_ connection: Connection, besides taken: [Connection]) -> String? {
        if connection.mediaType != .video { return "video data output '\(id)' takes a camera port" }
        if !taken.isEmpty || connection.inputPorts.count > 1 { return "video data output '\(id)' takes exactly one camera" }
        return nil
    }
}
