import Foundation

/// What pipcam does to a microphone's sound before the mix, the meters and the streams hear it, in the
/// order it is done: high-pass, noise suppression, gain, limiter. `offset` moves the sound in time in the
/// recording only, so `sync-check` still measures the microphone as it is.
public struct SoundProcessing: Sendable, Hashable {
    /// The strength of WebRTC's noise suppressor (webrtcdsp). High and very high run it twice: one pass
    /// at its own highest level takes a white-noise floor down about 15 dB, two take it down 22 and 30,
    /// and a voice or a beep over the noise keeps its level within half a dB either way.
    public enum NoiseSuppression: String, Sendable, Hashable, CaseIterable {
        case off, low, moderate, high
        case veryHigh = "very-high"
    }

    /// Which sound a microphone's own track carries when the file has one per microphone: the mix is
    /// always processed.
    public enum OwnTrack: String, Sendable, Hashable, CaseIterable {
        case processed, raw
    }

    /// Decibels added (negative: taken away); 0 leaves the sound as it is.
    public var gain = 0.0
    /// A cut below this frequency (hum, rumble, handling noise), in Hz; nil: none.
    public var highPass: Double?
    public var noiseSuppression = NoiseSuppression.off
    /// A ceiling in dBFS the recorded sound stays under, after the gain; nil: none. Samples over it are
    /// cut, not turned down: a hard limit for the odd loud moment, not a compressor.
    public var limiter: Double?
    /// How late the microphone is against the cameras: positive moves its sound earlier in the recording.
    public var offset = Duration.zero
    public var ownTrack = OwnTrack.processed

    public init() {}

    public static let gainRange = -40.0...20.0
    public static let highPassRange = 20.0...1000.0
    public static let limiterRange = -30.0...0.0
    /// Within the half second the mixers wait for a late microphone (`ProgramStage.mixerLatency`), with
    /// room for the sound card's own buffer.
    public static let offsetMilliseconds = -400...400
    public static var offsetRange: ClosedRange<Duration> { .milliseconds(offsetMilliseconds.lowerBound) ... .milliseconds(offsetMilliseconds.upperBound) }

    /// The linear factor of `gain`, as `volume` takes it.
    public var gainFactor: Double { pow(10, gain / 20) }
    /// How far under its ceiling the limiter holds the sound: Opus's decoded peaks run up to about 0.7 dB
    /// over what it was given (measured on a 440 Hz tone, clean and cut), so the file's stay under the
    /// ceiling too.
    public static let encoderHeadroom = 1.0
    /// The linear level `audiodynamic` cuts at, for the ceiling `limiter`.
    public var limiterThreshold: Double? { limiter.map { pow(10, ($0 - Self.encoderHeadroom) / 20) } }
}

extension SoundProcessing {
    /// As the control socket's status shows it, with a description's keys; a stage that is off is null.
    public var json: JSONValue {
        .object([
            "gain": .number(gain, places: 1), "high-pass": highPass.map { .number($0, places: 0) } ?? .null,
            "noise-suppression": .string(noiseSuppression.rawValue), "limiter": limiter.map { .number($0, places: 1) } ?? .null,
            "offset": .integer(Int(offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000)),
            "track": .string(ownTrack.rawValue),
        ])
    }
}
