/// Quality levels, as AVFoundation's `sessionPreset`: the size and rate of the recorded picture.
/// A device's explicit `activeFormat` wins over what the preset would pick for it.
public enum SessionPreset: String, Sendable, Codable, CaseIterable {
    case low, medium, high, hd720, hd1080, photo

    /// The size of the composed picture the movie file records.
    public var outputSize: (width: Int, height: Int) {
        switch self {
        case .low: return (640, 360)
        case .medium: return (960, 540)
        case .high, .hd720: return (1280, 720)
        case .hd1080, .photo: return (1920, 1080)
        }
    }

    /// Frames per second unless the description sets a rate.
    public var frameRate: Double {
        switch self {
        case .low: return 15
        case .photo: return 15
        default: return 30
        }
    }

    /// H.264 bitrate in kbit/s that keeps this size sharp at 30 fps.
    public var videoBitrate: Int {
        switch self {
        case .low: return 1000
        case .medium: return 2500
        case .high, .hd720: return 4000
        case .hd1080, .photo: return 8000
        }
    }
}
