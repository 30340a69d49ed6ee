import CaptureModel
import Dispatch
import GStreamer

/// One attempt at a stream: its own pipeline (`StreamPipelinePlan`), the watch on its sink, the bus
/// subscription and the poll that follow it, what went through it, and its end. A failed attempt is
/// let go and a new one made (`StreamConnection`).
final class StreamAttempt: @unchecked Sendable {
    let pipeline: Pipeline
    let picture: AppSource
    let sound: AppSource?
    let watch: StreamSinkWatch
    let started = ContinuousClock.now
    var subscription: BusSubscription?
    var poll: DispatchSourceTimer?
    /// Whether the server accepted this attempt; whether pipcam's own check looked at its address.
    var wasLive = false, reachChecked = false
    /// What the stream handed this attempt, and what its transport sent.
    var pushed = Int64(0), sent = Int64(0)

    /// The pipeline made from `planned` (not started); nil when a part of it is missing.
    init?(_ planned: StreamPipelinePlan, of stream: StreamOutput, requestKeyFrame: @escaping @Sendable () -> Void) throws {
        let pipeline = try PipelineAssembler.assemble(planned.plan, name: "stream-" + stream.name)
        guard let picture = pipeline[planned.picture], let sink = pipeline[planned.sink] else { return nil }
        self.pipeline = pipeline
        self.picture = picture
        sound = planned.sound.flatMap { pipeline[$0] }
        watch = StreamSinkWatch(destination: stream.destination, sink: sink)
        // A viewer joining a listener decodes from the next key frame: asked for now, not in two seconds.
        if case .srtListener = stream.destination { sink.onCallerAdded { requestKeyFrame() } }
    }

    /// Sends what the pipeline holds (a few seconds at most), then stops it. One whose server never took
    /// the stream has nothing to send: it stops at once, and never waits on a connect.
    func end(of stream: StreamOutput) async {
        subscription?.cancel()
        guard wasLive else {
            _ = try? pipeline.setState(.null)
            return
        }
        let messages = pipeline.bus.messages()
        picture.endOfStream()
        sound?.endOfStream()
        _ = try? await messages.first(timeout: .seconds(3)) { message in
            if case .eos = message.kind { return true }
            return message.isError
        }
        // SRT drops what the viewer has not taken yet when its socket closes: the last pictures would
        // reach the viewer cut off. Its latency (the receiver's wait for resent packets) and a margin let
        // them arrive first.
        if let linger = stream.srtLatency.map({ $0 + .milliseconds(500) }) { try? await Task.sleep(for: linger) }
        _ = try? pipeline.setState(.null)
    }
}
