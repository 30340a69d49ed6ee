import Foundation

/// One step of the ladder taken: what the running session applies, shows in its status line and
/// writes to `--events FILE.jsonl`.
public struct ThrottleEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A step down: lighter settings.
        case throttle
        /// A step back up towards the configured settings.
        case restore
    }

    public var kind: Kind
    /// The rung now in force (0: as configured) and how many there are below it.
    public var step: Int
    public var bottom: Int
    public var settings: ThrottleSettings
    /// What changed, e.g. "inset camera at 50 %" (for a restore: what was given back).
    public var change: String
    /// Why, e.g. "pressure serious for 3 s: cpu 92 % of all cores".
    public var reason: String
    /// When, on the caller's clock (time since recording started).
    public var time: Duration

    /// For the status line: "throttled 1/4: inset camera at 50 % (pressure serious for 3 s: …)".
    public var summary: String {
        let verb = kind == .throttle ? "throttled" : "restored"
        return "\(verb) \(step)/\(bottom): \(kind == .throttle ? "" : "back from ")\(change) (\(reason))"
    }

    /// One JSON object on one line, with an "event" field: a line of an events file.
    public var jsonLine: String {
        let record = Record(event: kind.rawValue, time: (time.seconds * 1000).rounded() / 1000, step: step, steps: bottom,
                            change: change, reason: reason, settings: settings)
        // Encoding these fields cannot fail; the fallback only keeps the line an event if it ever did.
        return ((try? JSONValue(encoding: record)) ?? ["event": .string(kind.rawValue)]).text
    }

    private struct Record: Encodable {
        let event: String
        let time: Double
        let step: Int
        let steps: Int
        let change: String
        let reason: String
        let settings: ThrottleSettings
    }
}
