import Foundation

/// What a network camera sends, as `pipcam probe` reads it in its first second.
public struct NetworkCameraOffer: Sendable, Equatable {
    /// The picture's format as people name it: H.264, H.265, MJPEG.
    public let codec: String
    public let width: Int, height: Int
    /// As the stream states it, else as the pictures came.
    public let frameRate: Double
    /// The sound's format, nil when the camera sends none.
    public let sound: String?

    public init(codec: String, width: Int, height: Int, frameRate: Double, sound: String?) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.sound = sound
    }

    /// One line each: the picture, then the sound.
    public var lines: [String] {
        ["picture: \(codec) \(width)x\(height) at \(VideoFormat.rateText(frameRate)) fps", "sound: \(sound ?? "none")"]
    }
}

/// Why a network camera offers nothing, in one line that never holds its password.
public enum NetworkCameraProbeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The camera answered wrongly or not at all ("it does not answer (connection refused)").
    case failed(String)
    /// Nothing came within the time given: a camera that accepts and never sends.
    case timedOut(Duration)
    /// pipcam could not make what reads it (an element missing).
    case unusable(String)

    public var description: String {
        switch self {
        case .failed(let why): why
        case .timedOut(let time): "no picture came within \(Int(time.seconds)) s"
        case .unusable(let why): why
        }
    }
}
