/// What `record` does when a configuration costs more than the machine has (the description's
/// `cost:` section).
public struct CostPolicy: Sendable, Equatable {
    public enum OverBudget: String, Sendable, CaseIterable {
        /// Do not start; say what costs too much and what to change. A session over budget would drop
        /// frames from the start, or fail outright when a USB controller runs out of bandwidth.
        case refuse
        /// Make the changes `pipcam check` suggests (MJPEG, lower rate, smaller picture) and record.
        case adjust
        /// Say so and record as configured, for an estimate known to be wrong on this machine.
        case warn
    }

    /// nil (not stated): refuse when a USB controller runs out of bandwidth, which no setting survives;
    /// warn when only the CPU estimate is over, which the live throttle ladder answers.
    public var overBudget: OverBudget?

    public init(overBudget: OverBudget? = nil) {
        self.overBudget = overBudget
    }
}
