import CaptureModel
import Foundation

/// Keeps the measured `PixelBudget` between runs, so the machine is measured once, not at every start.
/// The file is `$XDG_CACHE_HOME/pipcam/pixel-budget.json` (`~/.cache/pipcam/…` without it); delete it,
/// or run `pipcam check --recalibrate`, to measure again.
public enum BudgetCache {
    public static var file: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/pipcam/pixel-budget.json"
    }

    /// The stored budget, unless missing, unreadable, or measured with a different number of cores or
    /// other encoder settings than recordings use now.
    public static func load(from path: String = file) -> PixelBudget? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let budget = try? decoder.decode(PixelBudget.self, from: data),
              budget.cores == ProcessInfo.processInfo.activeProcessorCount,
              budget.encoder == BudgetCalibration.encoderSettings,
              [budget.generate, budget.decode, budget.composite, budget.encode].allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        return budget
    }

    public static func save(_ budget: PixelBudget, to path: String = file) throws {
        let text = try JSONValue(encoding: budget).indentedText + "\n"
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The stored budget, or a new measurement (stored for next time). `measuring` is told before a
    /// measurement starts, as it takes a few seconds.
    public static func budget(remeasure: Bool = false, measuring: () -> Void = {}) async throws -> PixelBudget {
        if !remeasure, let stored = load() { return stored }
        measuring()
        let budget = try await BudgetCalibration.measure()
        // A cache that cannot be written costs a measurement next time, nothing more.
        try? save(budget)
        return budget
    }
}
