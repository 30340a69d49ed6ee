import CaptureGraph
import CaptureModel

/// The graph a configuration becomes, without running it: what `describe` prints and `validate` checks.
public struct GraphDescription {
    private let plan: GraphPlan

    public init(_ configuration: SessionConfiguration) throws {
        plan = try configuration.graphPlan()
    }

    /// The graph as one gst-launch-1.0 line.
    public var launchLine: String { plan.launchLine }

    /// The graph as Graphviz DOT, built with every element and link.
    public func writeDotGraph(to path: String) throws { try plan.writeDotGraph(to: path) }

    /// Makes every element and link once and lets them go: an element this machine lacks, or a link that
    /// cannot be made, says why here rather than when recording.
    public func checkBuilds() throws { try plan.checkBuilds() }

    public var elementCount: Int { plan.nodes.count }
    public var outputSize: (width: Int, height: Int) { plan.outputSize }
    public var frameRate: Double { plan.frameRate }
}
