import Foundation

/// A time as people write it in every key and option that takes one: `120ms`, `2s`, `2m`, `1.5h`, or a
/// bare number in the key's own unit (milliseconds for a delay or offset, seconds for longer times), so
/// `delay: 120ms` and `offset: 120ms` read alike.
public enum DurationText {
    public enum Unit: Sendable {
        case milliseconds, seconds

        var name: String { self == .milliseconds ? "milliseconds" : "seconds" }
        var scale: Double { self == .milliseconds ? 1 : 1000 }
    }

    /// The time `text` says, or nil when it is not one.
    public static func parse(_ text: String, bare: Unit) -> Duration? {
        let units: [(String, Double)] = [("ms", 1), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (number, scale) = units.first { trimmed.hasSuffix($0.0) }.map { (String(trimmed.dropLast($0.0.count)), $0.1) } ?? (trimmed, bare.scale)
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, abs(value * scale) < 1e12 else { return nil }
        return .milliseconds(Int64((value * scale).rounded()))
    }

    /// "120ms", "2s", "1.5s", "2m": how a bound is said back.
    public static func text(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        if milliseconds != 0, abs(milliseconds) < 1000 { return "\(Int(milliseconds.rounded()))ms" }
        if milliseconds != 0, milliseconds.truncatingRemainder(dividingBy: 60_000) == 0 { return "\(Int(milliseconds / 60_000))m" }
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
