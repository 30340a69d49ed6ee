import Capture

/// A `sound` command's changes to a microphone's processing, checked against the ranges a description
/// allows, so a command and a description refuse the same values with the same words.
struct SoundChange: Sendable, Equatable {
    var gain: Double?
    /// Decibels added to the gain as it is (a key), held within its range.
    var gainStep: Double?
    var highPass: Double?
    var noiseSuppression: String?
    var limiter: Double?
    /// Milliseconds, positive when the microphone is late.
    var offset: Int?

    /// What a key press changes the gain by.
    static let keyStep = 3.0

    func applied(to sound: SoundProcessing) throws -> SoundProcessing {
        var next = sound
        if let gainStep {
            let range = SoundProcessing.gainRange
            next.gain = min(range.upperBound, max(range.lowerBound, sound.gain + gainStep))
        }
        if let gain { next.gain = try Self.checked(gain, "gain", SoundProcessing.gainRange) }
        if let highPass { next.highPass = try Self.checked(highPass, "high-pass", SoundProcessing.highPassRange) }
        if let limiter { next.limiter = try Self.checked(limiter, "limiter", SoundProcessing.limiterRange) }
        if let offset {
            let range = SoundProcessing.offsetMilliseconds
            guard range.contains(offset) else { throw CLIError("\"offset\" is \(range.lowerBound) to \(range.upperBound) ms, not \(offset)") }
            next.offset = .milliseconds(offset)
        }
        if let noiseSuppression {
            guard let level = SoundProcessing.NoiseSuppression(rawValue: noiseSuppression) else {
                throw CLIError("\"noise-suppression\" is one of \(SoundProcessing.NoiseSuppression.allCases.map(\.rawValue).joined(separator: ", ")), not '\(noiseSuppression.prefix(40))'")
            }
            next.noiseSuppression = level
        }
        return next
    }

    private static func checked(_ value: Double, _ key: String, _ range: ClosedRange<Double>) throws -> Double {
        guard value.isFinite, range.contains(value) else {
            throw CLIError("\"\(key)\" is \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)), not \(value)")
        }
        return value
    }

    private static func text(_ number: Double) -> String { number == number.rounded() ? String(Int(number)) : String(number) }
}
