/// Where each factor crosses into fair, serious and critical. The defaults are set so that serious
/// means "frames are being lost or soon will be", which is when the throttle ladder steps down.
public struct PressureThresholds: Sendable, Equatable {
    /// The values at which a factor reaches fair, serious and critical (each at least the one before).
    public struct Limits: Sendable, Equatable {
        public var fair: Double, serious: Double, critical: Double

        public init(fair: Double, serious: Double, critical: Double) {
            self.fair = fair
            self.serious = serious
            self.critical = critical
        }

        public func level(_ value: Double) -> PressureLevel {
            value >= critical ? .critical : value >= serious ? .serious : value >= fair ? .fair : .nominal
        }
    }

    /// Share of all cores this process uses: near all of them, the encoder has no slack left.
    public var processCPU = Limits(fair: 0.75, serious: 0.9, critical: 0.97)
    /// PSI "some" over 10 s, percent: other programs (or too many threads) keep pipcam from a CPU.
    /// A recording's own threads keep it near 20 % on 2 cores, and a busy desktop or a build near 30–50 %
    /// without hurting it; only when tasks wait most of the time is the recording starved.
    public var cpuStall = Limits(fair: 30, serious: 60, critical: 90)
    /// Dropped frames: one in a hundred is visible; one in five is a slideshow.
    public var dropped = Limits(fair: 0.005, serious: 0.02, critical: 0.2)
    /// The encoder's queue: filling means the encoder falls behind; full means pictures are dropped.
    public var queueFill = Limits(fair: 0.5, serious: 0.75, critical: 0.95)
    /// Degrees below the critical trip point: fair within 25, serious within 15, critical within 5; at
    /// the trip point the kernel shuts the machine down (shutdown).
    public var thermalMargin = Limits(fair: 25, serious: 15, critical: 5)
    /// The critical trip point to assume when no thermal zone reports one.
    public var criticalTemperature = 100.0

    public init() {}

    public static let standard = PressureThresholds()

    func thermalLevel(_ temperature: Double, critical: Double?) -> PressureLevel {
        let margin = (critical ?? criticalTemperature) - temperature
        if margin <= 0 { return .shutdown }
        return margin <= thermalMargin.critical ? .critical : margin <= thermalMargin.serious ? .serious
            : margin <= thermalMargin.fair ? .fair : .nominal
    }
}
