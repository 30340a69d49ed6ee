import Foundation

/// A window showing the cameras as the layout places them, while the session runs
/// (`AVCaptureVideoPreviewLayer`). It has connections of its own, so a front camera can be mirrored on
/// screen, as people expect of a selfie view, while the recording keeps its connection's settings.
///
/// The preview composes its own small picture from the captured frames rather than showing the recorded
/// one: composing at preview size costs about what scaling the recorded picture down would, and it is
/// the only way to mirror one camera and not the other (see `GraphBuilder.addPreview`).
public struct PreviewOutput: Sendable {
    public var id: String
    /// The video sink that draws the window (`PreviewSink.find()` picks one the display can use).
    public var sink: ElementFactory
    /// Width of the window's picture; the height follows the recorded picture's aspect.
    public var width: Int
    /// A line of text over the picture (`CaptureSession.setPreviewOverlay`): never recorded.
    public var showsOverlay: Bool
    /// Keys pressed in the window, shared by every copy of this output.
    public let keys = PreviewKeys()

    public init(id: String = "preview", sink: ElementFactory, width: Int = 640, showsOverlay: Bool = true) {
        self.id = id
        self.sink = sink
        self.width = width
        self.showsOverlay = showsOverlay
    }
}

/// Keys pressed in the preview window, as X key names ("s", "space", "Left", "1"), in order.
public final class PreviewKeys: Sendable {
    public let presses: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (presses, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
    }

    package func press(_ key: String) { continuation.yield(key) }

    deinit { continuation.finish() }
}
