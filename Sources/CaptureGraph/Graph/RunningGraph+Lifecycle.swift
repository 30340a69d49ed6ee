import CaptureModel
import Foundation
import GStreamer
import LinuxIO

/// What a running graph tells its session, read off the bus: the session decides what each means for
/// the recording.
package enum GraphEvent: Sendable {
    /// An element failed (`CaptureError.streamFailed`).
    case failed(CaptureError)
    /// The user closed the preview window: the sink reports it as an error.
    case previewClosed
    /// Every branch ended by itself (clips played out): the file is complete and drained.
    case drained
    /// An input's device failed, froze or left; its branch goes on without it (`SourceKeeper`).
    case interrupted(input: String, reason: InterruptionReason, at: Duration)
    /// The input's device is back in the recording.
    case interruptionEnded(input: String, at: Duration)
    /// Something the recording goes on through, worth a line (a camera back in another mode).
    case warning(String)
    /// A stream connected, was lost or fell behind (`StreamWriter`): the recording goes on.
    case stream(StreamEvent)
    /// A microphone clips, is silent, or is heard again (`SoundWatch`).
    case sound(SoundAlert)
}

/// Starting and finishing a built graph: the only place the pipeline's states and its bus are handled
/// for a recording.
extension RunningGraph {
    /// Listens to the bus (each message becomes at most one `GraphEvent`), then brings the pipeline to
    /// PLAYING, after `beforePlaying` (the cameras' controls are made before their first frame). A start
    /// that fails lets go of everything and throws the pipeline's own error, which says more than "state
    /// change failed"; a `CaptureError.cameraControl` from `beforePlaying` is thrown as it is.
    package func start(timeout: Duration = .seconds(15), cameraWatch: CameraWatch?, beforePlaying: () throws -> Void = {},
                       onEvent: @escaping @Sendable (GraphEvent) -> Void) async throws {
        let subscription = pipeline.bus.subscribe { [weak self] message in
            guard let self, let event = self.event(for: message) else { return }
            if case .failed(let error) = event { self.firstError.withValue { $0 = $0 ?? error } }
            onEvent(event)
        }
        attach(subscription: subscription, cameraWatch: cameraWatch)
        streams?.start(onEvent: onEvent)
        do {
            try beforePlaying()
            try await pipeline.reachState(.playing, timeout: timeout)
        } catch {
            // The error that made the start fail may still be on its way from a streaming thread: give it
            // a moment to arrive before letting go of the bus.
            await pipeline.bus.flush()
            if firstError.value == nil {
                _ = try? await pipeline.bus.messages().first(timeout: .seconds(1)) { $0.isError }
                await pipeline.bus.flush()
            }
            detach()
            _ = try? pipeline.setState(.null)
            if let refused = error as? CaptureError, case .cameraControl = refused { throw refused }
            guard case .streamFailed(let input, let element, _, let reason)? = firstError.value else {
                throw CaptureError.startFailed(input: nil, element: nil, cause: "\(error)")
            }
            // An error posted by no element is the pipeline's own.
            throw CaptureError.startFailed(input: input, element: element ?? "pipeline", cause: reason)
        }
        started.withValue { $0 = true }
        if let fallback = plan.encoderFallback { onEvent(.warning(fallback)) }
        writer.began()
        activateKeepers(onEvent: onEvent)
    }

    /// Ends the recording so the file is complete, then tears the graph down. End-of-stream goes in just
    /// downstream of every source rather than to the sources: a failed source cannot send it, and a live
    /// capture source blocked in a read may not for a while. A graph that `drained` by itself only stops.
    package func finish(timeout: Duration, drained: Bool) async throws {
        defer { detach() }
        chapters.close()
        var failure: (any Error)?
        if drained || writer.failed.value || cutShortAsked.value {
            // A file that can no longer be written to (a full disk) takes no more: waiting for the end
            // of the streams would wait for ever. It keeps what reached it; so does a stop asked at once.
            _ = try pipeline.setState(.null)
        } else {
            do {
                try await pipeline.finish(timeout: timeout) {
                    // The file's writer may have failed since the check above: no end of stream will come.
                    if self.writer.failed.value { self.pipeline.cutShort() } else { self.endAllSourcesFromDownstream() }
                }
            } catch {
                failure = error
            }
        }
        // The streams end once the file has: each sends what it holds, for a few seconds at most.
        await streams?.finish()
        // What the muxer could not write, written; a file it could not end, ended as a crashed one.
        if writer.finish() { return }
        if let failure { throw failure }
    }

    /// Ends a stop under way (or the next) without waiting for what is still queued to reach the file:
    /// the second Ctrl-C of someone who will not wait.
    package func cutShort() {
        cutShortAsked.withValue { $0 = true }
        pipeline.cutShort()
    }

    /// Running time of the recording so far.
    package var elapsed: Duration { pipeline.runningTime ?? .zero }

    private func event(for message: Message) -> GraphEvent? {
        if case .error(let text, let debug) = message.kind, let keeper = keeper(owning: message) {
            // A kept device's failure is an interruption, not the recording's end.
            keeper.sourceFailed(message, reason: Self.reason(text, debug: debug))
            return nil
        }
        if let undecodable = NetworkCameraFailure.missingDecoder(in: message), let keeper = keeper(owning: message) {
            keeper.undecodable.withValue { $0 = undecodable }
            return nil
        }
        if case .error = message.kind, writer.isWriter(of: message) {
            writer.failed.withValue { $0 = true }
            // A stop already waiting for the end of the streams (the disk watch asked for one as the disk
            // filled) would wait in vain: the end cannot reach the file any more.
            pipeline.cutShort()
            if message.errorCode == .noSpaceLeft { return .failed(.diskFull(path: writer.currentPath)) }
        }
        if case .element(let structure) = message.kind, writer.note(structure) { return nil }
        if case .element(let structure) = message.kind, structure.name == "level",
           let inputID = message.sourceName.flatMap({ plan.input(owning: $0) }) {
            let level = SoundLevel(peak: structure.doubles("peak").max() ?? SoundLevel.floor, rms: structure.doubles("rms").max() ?? SoundLevel.floor)
            let time = elapsed
            // The meter before the stages says only whether the device itself clips.
            let atInput = plan[input: inputID].deviceMeter?.name == message.sourceName
            if !atInput { soundLevels.withValue { $0[inputID] = level } }
            return soundWatch.withValue { $0.observe(level, of: inputID, at: time, atInput: atInput) }.map { .sound($0) }
        }
        switch message.kind {
        case .error where message.errorCode == .resourceNotFound && plan.previewSink.flatMap({ pipeline[$0] }).map({ message.isFrom($0) }) == true:
            return .previewClosed
        case .error(let text, let debug):
            let inputID = message.sourceName.flatMap { plan.input(owning: $0) }
            var reason = Self.reason(text, debug: debug)
            // A camera another program streams from fails as "busy": say which program.
            if case .v4l2(let node)? = inputID.flatMap(configuration.input)?.device.source { reason += CameraAccess.heldBy(node) }
            let code = message.errorCode.map { FailureCode(domain: $0.domain, code: $0.code) }
            return .failed(.streamFailed(input: inputID, element: message.sourceName, code: code, reason: reason))
        case .eos where message.isFrom(pipeline):
            return .drained
        default:
            return nil
        }
    }

    /// An error's text and, in brackets after it, what its debug text adds.
    static func reason(_ text: String, debug: String?) -> String {
        text + (debug.flatMap(detail(ofDebug:)).map { " (\($0))" } ?? "")
    }

    /// What an error's debug text adds for a user. GStreamer starts it with the line of its own source
    /// that raised it ("../sys/v4l2/gstv4l2object.c(4103): gst_v4l2_object_set_format_full (): /GstPipeline:…");
    /// what went wrong ("Call to S_FMT failed for YUYV @ 640x360: Device or resource busy") follows.
    private static func detail(ofDebug debug: String) -> String? {
        var lines = debug.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let first = lines.first, first.contains(".c("), first.contains("):") { lines.removeFirst() }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }
}
