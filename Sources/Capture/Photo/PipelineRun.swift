import CaptureModel
import GStreamer

/// Runs a short pipeline fed from Swift to its end: push the samples and end the stream while it plays.
enum PipelineRun {
    /// `shift` moves every sample's times back by that running time (a clip cut from a stream starts at zero).
    static func push(_ samples: [Sample], through pipeline: Pipeline, source: AppSource, startingAt shift: Duration? = nil,
                     timeout: Duration = .seconds(30)) async throws {
        try await pipeline.runToEnd(timeout: timeout) {
            for sample in samples {
                if let shift { try source.push(sample, startingAt: shift) } else { try source.push(sample) }
            }
            source.endOfStream()
        }
    }
}
