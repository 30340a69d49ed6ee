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

    package init(time: Duration, reading: PressureReading, counts: PressureMonitor.FrameCounts, skipped: Int, throttleStep: Int) {
        self.time = time
        self.reading = reading
        self.counts = counts
        self.skipped = skipped
        self.throttleStep = throttleStep
    }

    /// One line of an events file. Times to the millisecond and factors to three places: finer would
    /// only be noise of the sampling.
    public var jsonLine: String {
        let factors = Dictionary(reading.factors.map { ($0.kind.rawValue, JSONValue.number($0.value, places: 3)) }) { $1 }
        let line: JSONValue = [
            "event": "pressure", "time": .number(time.seconds, places: 3), "level": .string(reading.level.description),
            "factors": .object(factors), "pictures": .integer(counts.delivered), "dropped": .integer(counts.dropped),
            "skipped": .integer(skipped), "step": .integer(throttleStep),
        ]
        return line.text
    }
}
