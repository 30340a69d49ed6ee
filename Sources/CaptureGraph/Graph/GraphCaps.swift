import CaptureModel
import GStreamer

/// Every format the graph states, as caps values: what a camera is asked for, what a data output
/// delivers, and the fixed formats the picture and the sound are made in.
enum GraphCaps {
    /// The composed picture, the preview and the cameras' own tracks are I420: what the compositor
    /// composes in and x264 encodes.
    static func picture(width: Int? = nil, height: Int? = nil, frameRate: Double? = nil) -> Caps {
        CapsBuilder(.rawVideo).set("format", "I420").set("width", width).set("height", height)
            .set("framerate", frameRate.map(Fraction.init(rate:))).caps
    }

    /// Any format at this size (a clip or a screen scaled to its camera's mode before it is converted).
    static func size(width: Int, height: Int) -> Caps {
        CapsBuilder(.rawVideo).set("width", width).set("height", height).caps
    }

    /// Sound as the mixer and the encoder take it.
    static func sound(channels: Int) -> Caps {
        CapsBuilder(.rawAudio).set("rate", 48000).set("channels", channels).caps
    }

    /// The sound noise suppression takes (webrtcdsp): 16-bit, interleaved, at the session's rate.
    static let suppressible = CapsBuilder(.rawAudio).set("format", "S16LE").set("layout", "interleaved").set("rate", 48000).set("channels", 1).caps
    /// The sound the gain and the limiter work on: floating point, so nothing clips before the limiter.
    static let floatSound = CapsBuilder(.rawAudio).set("format", "F32LE").set("layout", "interleaved").set("rate", 48000).set("channels", 1).caps

    /// The sound the sync microphone's beeps are written into: mono 16-bit, as `Pad.soundSyncBeeps` takes it.
    static let syncBeeps = CapsBuilder(.rawAudio).set("format", "S16LE").set("layout", "interleaved").set("rate", 48000).set("channels", 1).caps
}

extension CaptureMode {
    /// The caps to ask of the source: exact size and rate, plus the pixel format when the device has a
    /// list (or `format`, for a camera pipcam draws), and the colours when stated.
    func caps(format: String? = nil, colorimetry: String? = nil) -> Caps {
        let jpeg = pixelFormat == "MJPG"
        return CapsBuilder(jpeg ? .jpeg : .rawVideo).set("format", jpeg ? nil : format ?? pixelFormat).set("colorimetry", colorimetry)
            .set("width", width).set("height", height).set("framerate", Fraction(rate: frameRate)).caps
    }
}

extension VideoDataOutput {
    var caps: Caps {
        CapsBuilder(.rawVideo).set("format", pixelFormat?.rawValue).set("width", size?.width).set("height", size?.height).caps
    }
}

extension AudioDataOutput {
    var caps: Caps {
        CapsBuilder(.rawAudio).set("format", format.rawValue).set("layout", "interleaved")
            .set("channels", channels).set("rate", sampleRate).caps
    }
}

extension CaptureMode {
    /// The mode a fixed camera caps value states (what a caps filter asks); nil when it states no size
    /// or rate.
    init?(caps: Caps) {
        guard let structure = caps.structures.first, let width = structure.int("width"), let height = structure.int("height"),
              case .value(.fraction(let numerator, let denominator))? = structure["framerate"], denominator > 0 else { return nil }
        let pixelFormat = structure.name == "image/jpeg" ? "MJPG" : structure.string("format")
        self.init(pixelFormat: pixelFormat, width: width, height: height, frameRate: Double(numerator) / Double(denominator))
    }
}
