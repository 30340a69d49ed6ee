import Foundation

/// One measurement behind a pressure level, with the level it alone would mean.
public struct PressureFactor: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// CPU this process used, as a share of all cores.
        case processCPU = "cpu"
        /// Time some task waited for a CPU (PSI, /proc/pressure/cpu), in percent: the machine as a whole.
        case cpuStall = "cpu-wait"
        /// Frames dropped or late against those delivered.
        case dropped
        /// How full the queue before the encoder is.
        case queueFill = "encoder-queue"
        /// The hottest thermal zone, in °C.
        case thermal
    }

    public var kind: Kind
    public var value: Double
    public var level: PressureLevel

    public var description: String {
        switch kind {
        case .processCPU: return String(format: "cpu %.0f %% of all cores", value * 100)
        case .cpuStall: return String(format: "tasks waiting for a cpu %.0f %% of the time", value)
        case .dropped: return String(format: "%.1f %% of frames dropped", value * 100)
        case .queueFill: return String(format: "encoder queue %.0f %% full", value * 100)
        case .thermal: return String(format: "%.0f °C", value)
        }
    }
}

/// The machine's load at one moment, as AVCaptureDevice.SystemPressureState: a level, and the
/// factors behind it.
public struct PressureReading: Sendable, Equatable, CustomStringConvertible {
    /// The highest level any factor reaches.
    public var level: PressureLevel
    /// Every factor that could be measured, in `Kind` order.
    public var factors: [PressureFactor]

    public init(factors: [PressureFactor]) {
        self.factors = factors
        level = factors.map(\.level).max() ?? .nominal
    }

    /// The factors that set the level, e.g. "cpu 92 % of all cores, 6.0 % of frames dropped"; for a
    /// nominal reading, every factor.
    public var causes: String {
        let setting = level == .nominal ? factors : factors.filter { $0.level == level }
        return setting.map(\.description).joined(separator: ", ")
    }

    /// "serious: cpu 92 % of all cores, 6.0 % of frames dropped".
    public var description: String { causes.isEmpty ? level.description : "\(level): \(causes)" }
}
