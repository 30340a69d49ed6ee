/// The steps of a throttle policy laid out as rungs: rung 0 is the session as configured, each rung
/// below it one step lighter. Stepping down goes one rung at a time, and restoring climbs back the
/// same rungs in reverse, so what was given up last comes back first.
public struct ThrottleLadder: Sendable, Equatable {
    public struct Rung: Sendable, Equatable {
        public var settings: ThrottleSettings
        /// What this rung changed from the one above, e.g. "inset camera at 50 %"; empty for rung 0.
        public var change: String
    }

    public let rungs: [Rung]

    /// Expands `steps` from the configured frame rate. Sizes are fractions of the full size, so a step
    /// that would not make a camera smaller than it already is adds no rung; frame rate steps stop at
    /// `floor` (a session configured at or below the floor keeps its rate).
    public init(frameRate: Double, steps: [ThrottleStep] = ThrottleStep.standard, floor: Double = 15) {
        var current = ThrottleSettings(frameRate: frameRate)
        var rungs = [Rung(settings: current, change: "")]
        for step in steps {
            switch step {
            case .insetSize(let scale) where scale < current.insetScale - 0.001:
                current.insetScale = scale
                rungs.append(Rung(settings: current, change: "inset camera at \(Int((scale * 100).rounded())) %"))
            case .mainSize(let scale) where scale < current.mainScale - 0.001:
                current.mainScale = scale
                rungs.append(Rung(settings: current, change: "main camera at \(Int((scale * 100).rounded())) %"))
            case .frameRate(let by) where by > 0:
                while current.frameRate > floor + 0.001 {
                    current.frameRate = max(floor, current.frameRate - by)
                    rungs.append(Rung(settings: current, change: "\(VideoFormat.rateText(current.frameRate)) fps"))
                }
            default:
                continue
            }
        }
        self.rungs = rungs
    }

    /// The lightest rung's index.
    public var bottom: Int { rungs.count - 1 }
}
