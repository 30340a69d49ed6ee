import Foundation
import GStreamer

/// A built pipeline together with its plan, and the live handles a session needs while it runs:
/// frame counters, the recording limit, and the pads and elements that take changes without a rebuild.
final class RunningGraph: @unchecked Sendable {
    let plan: GraphPlan
    let pipeline: Pipeline
    private(set) var captured: [String: FrameCounter] = [:]
    private(set) var delivered: [String: FrameCounter] = [:]
    /// Timestamps of the composed picture as it enters the file.
    let written = FrameCounter()
    private var subscriptions: [AppSinkSubscription] = []

    init(plan: GraphPlan, configuration: SessionConfiguration) throws {
        self.plan = plan
        pipeline = try PipelineAssembler.assemble(plan)
        for tap in plan.cameraTaps {
            let capturedCounter = FrameCounter()
            try pipeline.element(named: tap.captured)?.staticPad("sink").addBufferProbe { time in
                capturedCounter.bump(time)
                return .pass
            }
            captured[tap.inputID] = capturedCounter
            if let element = tap.delivered, let padName = tap.deliveredPad {
                let deliveredCounter = FrameCounter()
                try pipeline.element(named: element)?.staticPad(padName).addBufferProbe { time in
                    deliveredCounter.bump(time)
                    return .pass
                }
                delivered[tap.inputID] = deliveredCounter
            }
        }
        for output in configuration.videoDataOutputs {
            if let name = plan.appSinks[output.id], let sink = pipeline.element(named: name) as? AppSink {
                subscriptions.append(sink.onSample(output.handler))
            }
        }
        for output in configuration.audioDataOutputs {
            if let name = plan.appSinks[output.id], let sink = pipeline.element(named: name) as? AppSink {
                subscriptions.append(sink.onSample(output.handler))
            }
        }
    }

    /// Cuts every track of the file at `limit` (buffers at or past it are dropped before the muxer) and
    /// calls `reached` once the picture gets there, so a timed recording is exact to the frame.
    func limitRecording(to limit: Duration, reached: @escaping @Sendable () -> Void) throws {
        guard let muxName = plan.muxName, let mux = pipeline.element(named: muxName) else { return }
        let fired = FrameCounter()
        for (index, padName) in plan.muxPads.enumerated() {
            let isPicture = index == 0
            try mux.staticPad(padName).addBufferProbe { [written] time in
                guard let time else { return .pass }
                if time >= limit {
                    if isPicture && fired.value == 0 {
                        fired.bump(nil)
                        reached()
                    }
                    return .drop
                }
                if isPicture { written.bump(time) }
                return .pass
            }
        }
    }

    /// Counts what reaches the file when no limit is set.
    func countWrittenPictures() throws {
        guard let muxName = plan.muxName, let first = plan.muxPads.first, let mux = pipeline.element(named: muxName) else { return }
        try mux.staticPad(first).addBufferProbe { [written] time in
            written.bump(time)
            return .pass
        }
    }

    /// The input whose branch an element belongs to, from the element's name ("cam1-src" → second input).
    func inputID(forElementPath path: String?, configuration: SessionConfiguration) -> String? {
        guard let path, let name = path.split(separator: "/").last?.split(separator: ":").last else { return nil }
        for (index, input) in configuration.inputs.enumerated() {
            let prefix = input.device.isCamera ? "cam\(index)-" : "mic\(index)-"
            if name.hasPrefix(prefix) { return input.id }
        }
        return nil
    }

    /// Ends every source branch from the outside, for when a source has failed and cannot send EOS itself.
    func endAllSourcesFromDownstream() {
        for node in plan.nodes where node.name.hasSuffix("-src") {
            guard let source = pipeline.element(named: node.name), let pad = try? source.staticPad("src"), let peer = pad.peer else { continue }
            peer.sendEndOfStream()
        }
    }

    // MARK: changes that need no rebuild

    /// Applies layout, connection switches, flips and mutes of `configuration` to the running graph.
    func applyLiveSettings(_ configuration: SessionConfiguration) throws {
        let (width, height) = plan.outputSize
        if let compositorName = plan.compositorName, let compositor = pipeline.element(named: compositorName),
           let composed = configuration.composedCameras() {
            let regions = configuration.layout.regions(width: width, height: height)
            for (connection, region) in [(composed.main, regions.main)] + (composed.second.map { [($0, regions.second)] } ?? []) {
                guard let padName = plan.compositorPads[connection.inputPorts[0].inputID] else { continue }
                let pad = try compositor.staticPad(padName)
                for (property, value) in GraphBuilder.padProperties(region) { try pad.set(property, value) }
            }
        }
        for connection in configuration.connections {
            if let valve = plan.valves[connection.id].flatMap(pipeline.element(named:)) {
                try valve.set("drop", !connection.isEnabled)
            }
            if let flip = plan.flips[connection.id].flatMap(pipeline.element(named:)) {
                try flip.set("video-direction", connection.videoDirection)
            }
        }
        if let mixerName = plan.mixerName, let mixer = pipeline.element(named: mixerName) {
            let builder = GraphBuilder(configuration)
            for (inputID, padName) in plan.mixerPads {
                try mixer.staticPad(padName).set("mute", builder.isMutedInMix(inputID))
            }
        }
    }
}
