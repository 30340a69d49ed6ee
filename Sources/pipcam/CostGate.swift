import Capture
import Foundation

/// What `record` does before it starts: works out the session's hardware cost and, over budget,
/// refuses, adjusts or warns as the configuration's cost policy (the description's `cost.over-budget`) says.
enum CostGate {
    static func admit(_ configuration: SessionConfiguration, pipeline: String?) async throws -> SessionConfiguration {
        let stated = configuration.costPolicy.overBudget
        // A stated policy is worth measuring the machine for; otherwise a measurement `pipcam check` left
        // is used, and without one only the USB buses are checked (no surprise pause before recording).
        var budget = CostCheck.keptBudget() ?? unmeasured
        if stated != nil {
            do {
                budget = try await CostCheck.measuredBudget {
                    FileHandle.standardError.write(Data("measuring this machine (a few seconds, once)…\n".utf8))
                }
            } catch {
                // An unknown cost is no reason to lose a recording.
                FileHandle.standardError.write(Data("note: the cost is not checked: \(error)\n".utf8))
                return configuration
            }
        }
        let check = CostCheck(configuration, budget: budget)
        let cost = try check.cost()
        guard cost.isOverBudget else { return configuration }
        let summary = "hardware cost \(String(format: "%.2f", cost.total)) is over budget: \(cost.limit)"
        switch stated ?? (cost.overBudgetBuses.isEmpty ? .warn : .refuse) {
        case .refuse:
            let first = try check.remedies().first
            let advice = first.map { "; try: \($0.text) (cost \(String(format: "%.2f", $0.cost)))" } ?? ""
            throw CLIError("\(summary)\(advice); pipcam check\(pipeline.map { " --pipeline \($0)" } ?? "") lists every fix, and cost: {over-budget: adjust} makes them")
        case .adjust:
            let (fitted, applied) = try check.fitted()
            let changes = applied.map(\.text).joined(separator: "; ")
            FileHandle.standardError.write(Data("note: \(summary); adjusted: \(changes)\n".utf8))
            return fitted
        case .warn:
            let why = stated == nil ? "the throttle ladder lightens it if the machine falls behind" : "cost: {over-budget: warn}"
            FileHandle.standardError.write(Data("warning: \(summary); recording as configured (\(why))\n".utf8))
            return configuration
        }
    }

    /// A budget no session reaches: with it, only the buses count.
    private static let unmeasured = PixelBudget(generate: 1e15, decode: 1e15, composite: 1e15, encode: 1e15, cores: 1)
}
