import GStreamer

/// Per-frame access to one camera (`AVCaptureVideoDataOutput`): frames arrive in `pixelFormat`,
/// late frames are discarded rather than queued when the handler falls behind.
public struct VideoDataOutput: Sendable {
    public var id: String
    /// A raw format name such as "RGBx", "BGRx", "I420" or "NV12".
    public var pixelFormat: String
    public var alwaysDiscardsLateVideoFrames: Bool
    public var handler: @Sendable (Sample) -> Void

    public init(id: String, pixelFormat: String = "BGRx", alwaysDiscardsLateVideoFrames: Bool = true,
                handler: @escaping @Sendable (Sample) -> Void) {
        self.id = id
        self.pixelFormat = pixelFormat
        self.alwaysDiscardsLateVideoFrames = alwaysDiscardsLateVideoFrames
        self.handler = handler
    }
}

/// Per-buffer access to one microphone (`AVCaptureAudioDataOutput`), as interleaved 32-bit float.
public struct AudioDataOutput: Sendable {
    public var id: String
    public var handler: @Sendable (Sample) -> Void

    public init(id: String, handler: @escaping @Sendable (Sample) -> Void) {
        self.id = id
        self.handler = handler
    }
}
