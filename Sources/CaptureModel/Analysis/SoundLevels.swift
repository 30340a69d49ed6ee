/// Loudness of one buffer of sound, per channel: RMS and peak of the samples (0…1 of full scale).
public struct SoundLevels: Sendable {
    public let rms: [Double]
    public let peak: [Double]

    public init(_ buffer: AudioDataBuffer) throws {
        let samples = try buffer.floatSamples()
        let channels = max(1, buffer.channels)
        var squares = [Double](repeating: 0, count: channels)
        var peaks = [Double](repeating: 0, count: channels)
        for (index, sample) in samples.enumerated() {
            let value = Double(sample), channel = index % channels
            squares[channel] += value * value
            peaks[channel] = max(peaks[channel], abs(value))
        }
        let frames = Double(max(1, samples.count / channels))
        rms = squares.map { ($0 / frames).squareRoot() }
        peak = peaks
    }
}
