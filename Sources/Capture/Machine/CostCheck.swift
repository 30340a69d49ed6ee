import CaptureGraph
import CaptureModel
import LinuxIO

/// What a session costs this machine and, over budget, what to change: the session's configuration
/// against the machine's measured budget and the USB buses its cameras share.
public struct CostCheck: Sendable {
    public let configuration: SessionConfiguration
    public let budget: PixelBudget
    private let buses: [String: UsbBus]

    public init(_ configuration: SessionConfiguration, budget: PixelBudget) {
        self.configuration = configuration
        self.budget = budget
        buses = UsbTopology.buses(of: configuration)
    }

    public func cost() throws -> HardwareCost {
        try configuration.hardwareCost(buses: buses, budget: budget)
    }

    /// Every change that would bring the session within budget, cheapest first.
    public func remedies() throws -> [CostRemedy] {
        try CostAdvisor.remedies(for: configuration, buses: buses, budget: budget)
    }

    /// The configuration with the fewest changes that fit, and those changes.
    public func fitted() throws -> (SessionConfiguration, applied: [CostRemedy]) {
        try CostAdvisor.fitted(configuration, buses: buses, budget: budget)
    }

    /// The machine's budget, measured once (a few seconds; `measuring` is called first) and then kept.
    public static func measuredBudget(remeasure: Bool = false, measuring: () -> Void = {}) async throws -> PixelBudget {
        try await BudgetCache.budget(remeasure: remeasure, measuring: measuring)
    }

    /// The budget a previous measurement kept, without measuring.
    public static func keptBudget() -> PixelBudget? {
        BudgetCache.load()
    }
}
