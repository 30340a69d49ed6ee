/// One sample of a running session's pressure, about a second apart: the reading with the factors
/// behind it, the frame counts it was taken from, and the throttle rung in force.
public struct PressureSample: Sendable {
    /// Time since recording started.
    public let time: Duration
    public let reading: PressureReading
    /// Totals since recording started: pictures encoded and frames lost on the way.
    public let counts: PressureMonitor.FrameCounts
    /// Pictures skipped on purpose under a throttle rung (a lower rate, not a loss).
    public let skipped: Int
    public let throttleStep: Int

    /// One line of an events file.
    public var jsonLine: String {
        let factors = reading.factors.map { "\"\($0.kind.rawValue)\":\((($0.value * 1000).rounded() / 1000))" }.joined(separator: ",")
        return "{\"event\":\"pressure\",\"time\":\((time.seconds * 1000).rounded() / 1000),\"level\":\"\(reading.level)\","
            + "\"factors\":{\(factors)},\"pictures\":\(counts.delivered),\"dropped\":\(counts.dropped),\"skipped\":\(skipped),\"step\":\(throttleStep)}"
    }
}
