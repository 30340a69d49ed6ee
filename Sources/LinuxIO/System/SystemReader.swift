import CaptureModel
import Foundation

/// Reads a `SystemSnapshot` from the kernel's files: /proc/self/stat for this process's CPU time,
/// /proc/pressure/cpu for PSI, /sys/class/thermal for temperatures. `root` lets tests use a tree of
/// their own instead of the real /proc and /sys.
public enum SystemReader {
    public static func snapshot(root: String = "", now: Duration? = nil) -> SystemSnapshot {
        let thermal = readThermal(root: root)
        return SystemSnapshot(
            time: now ?? ContinuousClock.now - started,
            processCPUSeconds: read("\(root)/proc/self/stat").flatMap(cpuTicks).map { Double($0) / Double(clockTicksPerSecond) },
            cores: ProcessInfo.processInfo.activeProcessorCount,
            cpuStall: read("\(root)/proc/pressure/cpu").flatMap(someAverage10),
            temperature: thermal.temperature, criticalTemperature: thermal.critical)
    }

    /// utime + stime of a /proc/PID/stat line, in clock ticks. The command name (field 2) is in
    /// parentheses and may hold spaces or parentheses itself, so fields are counted after the last ')'.
    public static func cpuTicks(_ stat: String) -> Int? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) and stime (15) are the 12th and 13th.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// "avg10" of the "some" line of a PSI file such as /proc/pressure/cpu.
    public static func someAverage10(_ text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return Double(field.dropFirst("avg10=".count))
            }
        }
        return nil
    }

    /// The hottest zone and the lowest critical trip point, in °C (the files hold millidegrees).
    static func readThermal(root: String) -> (temperature: Double?, critical: Double?) {
        let folder = "\(root)/sys/class/thermal"
        guard let zones = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return (nil, nil) }
        var hottest: Double?, critical: Double?
        for zone in zones where zone.hasPrefix("thermal_zone") {
            let path = "\(folder)/\(zone)"
            if let value = read("\(path)/temp").flatMap({ Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), value > 0 {
                hottest = max(hottest ?? -.infinity, value / 1000)
            }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for type in files where type.hasPrefix("trip_point_") && type.hasSuffix("_type") {
                guard read("\(path)/\(type)")?.trimmingCharacters(in: .whitespacesAndNewlines) == "critical",
                      let value = read("\(path)/\(type.dropLast("_type".count))_temp").flatMap({ Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
                      value > 0 else { continue }
                critical = min(critical ?? .infinity, value / 1000)
            }
        }
        return (hottest, critical)
    }

    /// Snapshot times count from here when the caller gives none.
    private static let started = ContinuousClock.now

    package static let clockTicksPerSecond = max(1, sysconf(Int32(_SC_CLK_TCK)))

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
