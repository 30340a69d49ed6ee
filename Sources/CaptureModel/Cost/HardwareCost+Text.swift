import Foundation

/// A hardware cost in words, as `pipcam check` prints it and `record` refuses with it: the total,
/// each bus and CPU stage with what takes it, and what to change.
extension HardwareCost {
    /// Every part, one per line, under a title such as the description file's name.
    public func report(title: String) -> String {
        var lines = ["\(title): hardware cost \(Self.number(total)), " + (isOverBudget
            ? "over budget: this machine cannot run the session as configured"
            : "fits (1 is all this machine has)")]
        for part in buses {
            let bus = part.bus
            lines.append("  \(bus.id), \(bus.generation)\(bus.controller.map { " on \($0)" } ?? ""): \(Self.number(part.share))"
                         + " (\(Self.mbits(part.bandwidth)) of the \(Self.mbits(bus.usable)) Mbit/s cameras can use of \(Self.mbits(bus.speed)))")
            let idWidth = part.cameras.map(\.load.inputID.count).max() ?? 0
            let modeWidth = part.cameras.map(\.load.modeText.count).max() ?? 0
            for (load, bandwidth) in part.cameras {
                lines.append("    " + Self.padded(load.inputID, idWidth) + Self.padded(load.modeText, modeWidth) + "\(Self.mbits(bandwidth)) Mbit/s")
            }
        }
        if buses.isEmpty { lines.append("  usb: no camera on a USB bus") }
        for id in camerasOffBus { lines.append("  \(id): on no USB bus found in sysfs; its bandwidth is not counted") }
        lines.append("  cpu: \(Self.number(cpuShare)) (of \(Int(PixelBudget.usableShare * 100)) % of \(budget.cores) cores)")
        let width = Stage.Kind.allCases.map(\.rawValue.count).max()!
        for stage in stages where stage.pixelRate > 0 {
            lines.append("    " + Self.padded(stage.kind.rawValue, width) + Self.number(stage.share) + "  " + stage.subjects.joined(separator: ", "))
        }
        if let measured = budget.measured {
            let day = ISO8601DateFormatter.string(from: measured, timeZone: .current, formatOptions: [.withFullDate])
            lines.append("  this machine was measured on \(day); pipcam check --recalibrate measures it again")
        }
        return lines.joined(separator: "\n")
    }

    /// The fullest part in a few words: "usb1 carries 885 of the 288 Mbit/s cameras can use (left, right)".
    public var limit: String {
        if let bus = overBudgetBuses.first, bus.share >= cpuShare {
            return "\(bus.bus.id) carries \(Self.mbits(bus.bandwidth)) of the \(Self.mbits(bus.bus.usable)) Mbit/s cameras can use"
                + " (\(bus.cameras.map(\.load.inputID).joined(separator: ", ")))"
        }
        return "the picture work needs \(Self.number(cpuShare)) of the CPU time pipcam can count on"
    }

    /// What `check` prints under the report when the cost is over 1.
    public static func remedyList(_ remedies: [CostRemedy]) -> String {
        guard !remedies.isEmpty else { return "nothing pipcam knows of brings it under 1: fewer or smaller cameras, or a faster machine" }
        return (["to fit, one of:"] + remedies.map {
            "  \($0.text)  → cost \(number($0.cost))\($0.cost <= 1 ? "" : " (not enough alone)")"
        }).joined(separator: "\n")
    }

    /// A column: the text and two spaces, padded to `width` + 2.
    static func padded(_ text: String, _ width: Int) -> String { text.padding(toLength: width + 2, withPad: " ", startingAt: 0) }

    static func number(_ value: Double) -> String { String(format: "%.2f", value) }
    static func mbits(_ value: Double) -> String { String(format: "%.0f", value) }
}
