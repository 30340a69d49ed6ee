/// The mode a camera is asked for: the format negotiated against what the device offers.
public struct CaptureMode: Sendable, Hashable, CustomStringConvertible {
    public var pixelFormat: String?
    public var width: Int
    public var height: Int
    public var frameRate: Double

    package init(pixelFormat: String?, width: Int, height: Int, frameRate: Double) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    public var description: String {
        "\(pixelFormat.map { "\($0) " } ?? "")\(width)x\(height) @ \(VideoFormat.rateText(frameRate)) fps"
    }
}
