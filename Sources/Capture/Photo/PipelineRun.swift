import GStreamer

/// Runs a short pipeline fed from Swift to its end: start it, push the samples, end the stream, wait
/// for end-of-stream (or the first error) on the bus, and stop it.
enum PipelineRun {
    /// `shift` moves every sample's times back by that running time (a clip cut from a stream starts at zero).
    static func push(_ samples: [Sample], through pipeline: Pipeline, source: AppSource, startingAt shift: Duration? = nil,
                     timeout: Duration = .seconds(30)) async throws {
        let messages = pipeline.bus.messages()
        defer { _ = try? pipeline.setState(.null) }
        // Sources start while the pipeline goes to PLAYING; the sinks finish prerolling once data arrives.
        try pipeline.setState(.playing)
        for sample in samples {
            if let shift { try source.push(sample, startingAt: shift) } else { try source.push(sample) }
        }
        source.endOfStream()
        let end = try await messages.first(timeout: timeout) { message in
            switch message.kind {
            case .eos, .error: return true
            default: return false
            }
        }
        switch end?.kind {
        case .eos?: return
        case .error(let text, _)?: throw GStreamerError.pipelineError(source: end?.sourceName ?? pipeline.name, message: text, debug: nil)
        default: throw GStreamerError.timeout("waiting for '\(pipeline.name)' to finish")
        }
    }
}
