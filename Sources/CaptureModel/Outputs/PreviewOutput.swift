import Foundation

/// The cameras as the layout places them, shown while the session runs (`AVCaptureVideoPreviewLayer`):
/// in a window, as JPEG pictures for the web page, or both. It has connections of its own, so a front
/// camera can be mirrored on screen, as people expect of a selfie view, while the recording keeps its
/// connection's settings.
///
/// The preview composes its own small picture from the captured frames rather than showing the recorded
/// one: composing at preview size costs about what scaling the recorded picture down would, it is the
/// only way to mirror one camera and not the other (see `GraphBuilder.addPreview`), and it needs no
/// recording (`pipcam preview`, `pipcam serve` between recordings).
public struct PreviewOutput: Sendable {
    public var id: String
    /// The video sink that draws the window (`PreviewSink.find()` picks one the display can use); nil
    /// for no window: the web page's pictures alone.
    public var sink: ElementFactory?
    /// Width of the window's picture; the height follows the recorded picture's aspect.
    public var width: Int
    /// A line of text over the window's picture (`CaptureSession.setPreviewOverlay`): never recorded.
    public var showsOverlay: Bool
    /// JPEG pictures of the preview for the web page, made only while someone watches.
    public var pictures: PreviewPictures?
    /// Someone watches the pictures now: set by the session (`CaptureSession.previewPictures()`), a
    /// live change that opens the pictures' branch, and without a window the cameras' preview branches.
    public var isWatched = false
    /// Keys pressed in the window, shared by every copy of this output.
    public let keys = PreviewKeys()

    public init(id: String = "preview", sink: ElementFactory?, width: Int = 640, showsOverlay: Bool = true, pictures: PreviewPictures? = nil) {
        self.id = id
        self.sink = sink
        self.width = width
        self.showsOverlay = showsOverlay && sink != nil
        self.pictures = pictures
    }

    /// Whether the preview's picture is composed now: always for a window, else while watched.
    public var isShown: Bool { sink != nil || isWatched }
}

/// The web page's live picture: the preview at most 640x360 and 10 pictures a second, as JPEG, handed to
/// every watcher. Shared by every copy of the preview output, so watchers stay across commits.
public final class PreviewPictures: Sendable {
    /// The largest picture sent: a phone's width, and a fraction of the recorded picture's cost.
    public static let maximumSize = PixelSize(width: 640, height: 360)
    public static let frameRate = 10
    /// JPEG's quality, 0 to 100: a clear picture of the room at about 30 kB.
    public static let quality = 75

    /// The JPEG pictures, as they are made.
    public let delivery = DataDelivery<PreviewPicture>()

    public init() {}

    /// Every picture from now on, the newest kept for a slow reader. `CaptureSession.previewPictures()`
    /// counts its watchers; this does not.
    package func stream() -> AsyncStream<PreviewPicture> { delivery.stream() }

    /// The size the pictures are sent at: the preview's, fitted into `maximumSize`, even.
    public static func size(fitting width: Int, _ height: Int) -> PixelSize {
        let scale = min(1, min(Double(maximumSize.width) / Double(width), Double(maximumSize.height) / Double(height)))
        return PixelSize(width: max(2, Int((Double(width) * scale).rounded()) & ~1), height: max(2, Int((Double(height) * scale).rounded()) & ~1))
    }
}

/// One JPEG picture of the preview.
public struct PreviewPicture: Sendable {
    public let jpeg: [UInt8]
    public let sequenceNumber: Int

    package init(jpeg: [UInt8], sequenceNumber: Int) {
        self.jpeg = jpeg
        self.sequenceNumber = sequenceNumber
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

extension PreviewOutput {
    /// Every camera the movie file composes (every camera when there is no movie file), turned as it
    /// records. A front camera is mirrored on screen, as people expect to see themselves
    /// (`automaticallyAdjustsVideoMirroring`); the recording keeps its own setting.
    func cameraConnections(in configuration: SessionConfiguration, mirroringFrontCameras: Bool) -> [Connection] {
        let recorded = configuration.movieConnections(.video)
        let cameras = recorded.isEmpty ? configuration.inputs.filter(\.device.isCamera).prefix(2).map { Connection(from: $0.port, to: id) } : recorded
        return cameras.compactMap { camera in
            guard let input = configuration.input(camera.inputPorts[0].inputID) else { return nil }
            var connection = Connection(from: input.port, to: id)
            connection.rotation = camera.rotation
            connection.isVideoMirrored = camera.isVideoMirrored || (mirroringFrontCameras && input.device.position == .front)
            connection.isEnabled = camera.isEnabled
            return connection
        }
    }

    /// Each microphone not connected to the preview yet, for its meter.
    func microphoneConnections(in configuration: SessionConfiguration) -> [Connection] {
        configuration.inputs.filter { microphone in
            !microphone.device.isCamera && !configuration.connections.contains { $0.outputID == id && $0.inputPorts.contains(microphone.port) }
        }.map { Connection(from: $0.port, to: id) }
    }
}

extension PreviewPictures {
    /// What the pictures cost, counted as if watched (a session must afford them when someone looks):
    /// their size and rate, or nil when the configuration makes none.
    public static func load(of configuration: SessionConfiguration) -> (size: PixelSize, frameRate: Double)? {
        guard let preview = configuration.previewOutput, preview.pictures != nil else { return nil }
        let (width, height) = configuration.preset.outputSize
        let size = Self.size(fitting: preview.width, Int((Double(preview.width) * Double(height) / Double(width)).rounded()))
        return (size, min(configuration.effectiveFrameRate, Double(frameRate)))
    }
}

extension PreviewOutput: TakesConnections {
    /// The preview shows up to two cameras, and a microphone's connection is for its meter alone.
    package func reasonCannotTake(_ connection: Connection, besides taken: [Connection]) -> String? {
        if connection.inputPorts.count > 1 { return "the preview takes one camera or microphone per connection" }
        if connection.mediaType == .video && taken.filter({ $0.mediaType == .video }).count >= 2 { return "the preview already shows two cameras" }
        return nil
    }
}
