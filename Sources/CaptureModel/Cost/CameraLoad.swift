/// What one camera asks of the machine: the stream it sends over its bus, and the work the graph does
/// with its pictures. The cost model reads only these values, so it can be tested without cameras.
public struct CameraLoad: Sendable, Hashable {
    /// Where the pictures come from, which decides the work before composition.
    public enum Origin: Sendable, Hashable {
        /// A V4L2 camera: raw frames arrive by DMA; MJPEG ones are decoded.
        case device
        /// A test pattern drawn by the CPU, with its clock.
        case synthetic
        /// A recorded clip, decoded in real time.
        case file
        /// A camera on the network: its stream decoded in real time, at the size it is sent.
        case network

        public init(_ source: CaptureDevice.Source) {
            switch source {
            case .v4l2, .pipewire: self = .device
            // A screen costs what a clip does: a full picture to convert and scale each frame.
            case .file, .screen, .screencast: self = .file
            case .network: self = .network
            case .testPattern, .tone, .syncBeeps, .alsa, .soundServer, .cameraSound: self = .synthetic
            }
        }
    }

    public var inputID: String
    public var width: Int
    public var height: Int
    public var frameRate: Double
    /// GStreamer's raw format name (YUY2, NV12, …) or "MJPG"; nil for pictures made in memory.
    public var pixelFormat: String?
    public var origin: Origin
    /// The camera is also encoded on its own track (isolated camera tracks).
    public var encodedAlone: Bool

    public init(inputID: String, width: Int, height: Int, frameRate: Double, pixelFormat: String? = nil,
                origin: Origin = .device, encodedAlone: Bool = false) {
        self.inputID = inputID
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.origin = origin
        self.encodedAlone = encodedAlone
    }

    public var pixelRate: Double { Double(width * height) * frameRate }

    public var isMJPEG: Bool { pixelFormat == "MJPG" }

    /// Mbit/s the camera sends over USB.
    public var bandwidth: Double { pixelRate * Self.bitsPerPixel(pixelFormat) / 1_000_000 }

    /// Bits each pixel takes on the wire. Raw formats are exact (YUYV: 16, so 1280x720 at 30 fps is
    /// 442 Mbit/s). MJPEG varies with the picture; webcams send about 2 bits a pixel at their usual
    /// quality, an eighth of YUYV. An unknown format counts as YUYV, the common raw one.
    public static func bitsPerPixel(_ pixelFormat: String?) -> Double {
        switch pixelFormat {
        case "MJPG": return 2
        case "H264", "HEVC": return 0.5
        case "GRAY8": return 8
        case "NV12", "NV21", "I420", "YV12": return 12
        case "RGB", "BGR", "Y444": return 24
        case "RGBx", "BGRx", "xRGB", "xBGR", "RGBA", "BGRA", "ARGB", "ABGR", "AYUV": return 32
        default: return 16
        }
    }

    /// "YUY2 1280x720 @ 30".
    public var modeText: String {
        "\(pixelFormat.map { "\($0) " } ?? "")\(width)x\(height) @ \(VideoFormat.rateText(frameRate))"
    }
}

/// The composed picture: what the compositor draws and the encoder compresses.
public struct PictureLoad: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var frameRate: Double
    /// Encoded by x264 on the CPU; a hardware encoder costs the CPU next to nothing.
    public var softwareEncoded: Bool
    /// The streams that encode a picture of their own (a size or bitrate of their own): each is a second
    /// encode, at its size. Streams that take the recording's picture cost no encode.
    public var streamPictures: [StreamPicture] = []

    public struct StreamPicture: Sendable, Hashable {
        public let stream: String
        public let width: Int, height: Int
        public init(stream: String, width: Int, height: Int) {
            self.stream = stream
            self.width = width
            self.height = height
        }
    }

    /// `streams`: those of them with a picture of their own are counted, at their size (the picture's
    /// when they give only a bitrate).
    public init(width: Int, height: Int, frameRate: Double, softwareEncoded: Bool = true, streams: [StreamOutput] = []) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.softwareEncoded = softwareEncoded
        streamPictures = streams.filter(\.encodesItsOwnPicture).map {
            StreamPicture(stream: $0.name, width: $0.size?.width ?? width, height: $0.size?.height ?? height)
        }
    }

    public var pixelRate: Double { Double(width * height) * frameRate }

    /// What each stream's own encode costs, named for the cost's lines.
    var streamItems: [(String, Double)] {
        streamPictures.map { ("stream \($0.stream) \($0.width)x\($0.height) @ \(VideoFormat.rateText(frameRate))", Double($0.width * $0.height) * frameRate) }
    }
}
