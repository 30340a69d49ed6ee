/// What one step of the throttle ladder asks of the running session: how large the cameras are
/// captured, as a share of the size they would be captured at unthrottled, and the frame rate.
public struct ThrottleSettings: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The inset (second) camera's capture size, as a fraction of its full one.
    public var insetScale: Double
    /// The main camera's capture size, as a fraction of its full one.
    public var mainScale: Double
    /// Frames per second of the cameras and the picture.
    public var frameRate: Double

    public init(insetScale: Double = 1, mainScale: Double = 1, frameRate: Double) {
        self.insetScale = insetScale
        self.mainScale = mainScale
        self.frameRate = frameRate
    }

    enum CodingKeys: String, CodingKey {
        case insetScale = "inset-scale", mainScale = "main-scale", frameRate = "frame-rate"
    }

    /// A camera's capture size at `scale` of its full size, at the nearest even number (chroma
    /// subsampling) and at least 16 pixels.
    public static func scaled(width: Int, height: Int, by scale: Double) -> (width: Int, height: Int) {
        func even(_ value: Double) -> Int { max(16, Int((value / 2).rounded()) * 2) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }

    public var description: String {
        "inset \(percent(insetScale)), main \(percent(mainScale)), \(VideoFormat.rateText(frameRate)) fps"
    }

    private func percent(_ scale: Double) -> String { "\(Int((scale * 100).rounded())) %" }
}
