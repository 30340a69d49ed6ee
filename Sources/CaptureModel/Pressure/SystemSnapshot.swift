/// What the system files said at one moment: the inputs of `PressureMonitor` that do not come from
/// the running graph. Any of them may be missing (no PSI in older kernels, no thermal zones in VMs).
public struct SystemSnapshot: Sendable, Equatable {
    /// When it was read, on a monotonic clock.
    public var time: Duration
    /// CPU time this process has used since it started, in seconds.
    public var processCPUSeconds: Double?
    public var cores: Int
    /// PSI "some avg10" of /proc/pressure/cpu, in percent.
    public var cpuStall: Double?
    /// The hottest thermal zone, and the lowest critical trip point of any zone, in °C.
    public var temperature: Double?
    public var criticalTemperature: Double?

    public init(time: Duration, processCPUSeconds: Double? = nil, cores: Int, cpuStall: Double? = nil,
                temperature: Double? = nil, criticalTemperature: Double? = nil) {
        self.time = time
        self.processCPUSeconds = processCPUSeconds
        self.cores = cores
        self.cpuStall = cpuStall
        self.temperature = temperature
        self.criticalTemperature = criticalTemperature
    }

    /// The share of all cores the process used between `earlier` and this snapshot.
    func cpuShare(since earlier: SystemSnapshot) -> Double? {
        guard let now = processCPUSeconds, let then = earlier.processCPUSeconds else { return nil }
        let elapsed = (time - earlier.time).seconds
        guard elapsed > 0 else { return nil }
        return max(0, now - then) / elapsed / Double(max(1, cores))
    }
}
