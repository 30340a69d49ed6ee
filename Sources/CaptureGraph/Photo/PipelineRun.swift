import CaptureModel
import GStreamer

/// Runs a short plan fed from Swift to its end: the plan is built as a recording's is
/// (`PipelineAssembler`), the samples pushed into its appsrc, and the stream ended while it plays.
enum PipelineRun {
    /// `shift` moves every sample's times back by that running time (a clip cut from a stream starts at zero).
    static func push(_ samples: [Sample], through plan: GraphPlan, source: ElementHandle<AppSource>, name: String,
                     startingAt shift: Duration? = nil, timeout: Duration = .seconds(30)) async throws {
        let pipeline = try PipelineAssembler.assemble(plan, name: name)
        // The handle is the plan's own, so it is always there.
        guard let appSource = pipeline[source] else { preconditionFailure("the plan has no appsrc \(source.name)") }
        try await pipeline.runToEnd(timeout: timeout) {
            for sample in samples {
                if let shift { try appSource.push(sample, startingAt: shift) } else { try appSource.push(sample) }
            }
            appSource.endOfStream()
        }
    }
}

extension GraphPlan {
    /// An appsrc that hands the pipeline buffers of `caps`, timed in nanoseconds.
    mutating func addAppSource(_ name: String, caps: Caps) -> ElementHandle<AppSource> {
        ElementHandle(add(name, .appsrc, [("caps", .caps(caps)), ("format", .string("time"))]))
    }
}
