/// Turns readings of the system and counts from the running graph into a `PressureReading`, once per
/// sample (about a second apart). Pure: the caller reads files (`SystemReader`) and counters, so every
/// level can be tested with known numbers.
public struct PressureMonitor: Sendable {
    /// Frames counted by the running graph since it started.
    public struct FrameCounts: Sendable, Equatable {
        /// Frames that reached the picture or the encoder.
        public var delivered: Int
        /// Frames dropped or processed too late to be used.
        public var dropped: Int

        public init(delivered: Int, dropped: Int) {
            self.delivered = delivered
            self.dropped = dropped
        }
    }

    public var thresholds: PressureThresholds
    private var previousSystem: SystemSnapshot?
    private var previousFrames: FrameCounts?

    public init(thresholds: PressureThresholds = .standard) {
        self.thresholds = thresholds
    }

    /// The reading for this sample. CPU use and drops are rates, so the first sample has neither: they
    /// are taken between this sample and the one before.
    public mutating func update(system: SystemSnapshot, frames: FrameCounts? = nil, queueFill: Double? = nil) -> PressureReading {
        var factors: [PressureFactor] = []
        if let before = previousSystem, let share = system.cpuShare(since: before) {
            factors.append(PressureFactor(kind: .processCPU, value: share, level: thresholds.processCPU.level(share)))
        }
        if let stall = system.cpuStall {
            factors.append(PressureFactor(kind: .cpuStall, value: stall, level: thresholds.cpuStall.level(stall)))
        }
        if let frames, let before = previousFrames {
            let dropped = max(0, frames.dropped - before.dropped)
            let offered = max(0, frames.delivered - before.delivered) + dropped
            if offered > 0 {
                let ratio = Double(dropped) / Double(offered)
                factors.append(PressureFactor(kind: .dropped, value: ratio, level: thresholds.dropped.level(ratio)))
            }
        }
        if let fill = queueFill.map({ min(1, max(0, $0)) }) {
            factors.append(PressureFactor(kind: .queueFill, value: fill, level: thresholds.queueFill.level(fill)))
        }
        if let temperature = system.temperature {
            factors.append(PressureFactor(kind: .thermal, value: temperature,
                                          level: thresholds.thermalLevel(temperature, critical: system.criticalTemperature)))
        }
        previousSystem = system
        if let frames { previousFrames = frames }
        return PressureReading(factors: factors)
    }
}
