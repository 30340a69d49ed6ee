import CaptureModel
import Foundation
import GStreamer

/// Each microphone's source, up to its queue: a sound card, the sound server, a tone or the sync beeps,
/// made into mono sound at the session's rate. A card kept through its loss is asked for the same format
/// when it is back (`SourceKeeper`).
struct MicrophoneSources {
    let configuration: SessionConfiguration

    func add(_ input: DeviceInput, prefix: String, to plan: inout GraphPlan) -> String {
        let source: String
        switch input.device.source {
        case .cameraSound(let camera):
            return addCameraSound(of: camera, prefix: prefix, to: &plan)
        case .alsa(let device):
            source = plan.add("\(prefix)-src", .alsasrc, [("device", .string(device)), ("buffer-time", .int(GraphBuilder.soundCardBufferMicroseconds))])
        case .soundServer(let name):
            source = plan.add("\(prefix)-src", .pulsesrc, name.map { [("device", .string($0))] } ?? [])
        case .tone(let frequency) where frequency > 0:
            source = plan.add("\(prefix)-src", .audiotestsrc, [
                ("is-live", .bool(true)), ("wave", .string("sine")), ("freq", .double(frequency)), ("volume", .double(0.4)),
            ])
        case .syncBeeps:
            // Silence from audiotestsrc, with beeps put in by pipcam (see `Pad.soundSyncBeeps`) in the one
            // format they are written in.
            let silence = plan.add("\(prefix)-src", .audiotestsrc, [("is-live", .bool(true)), ("wave", .string("silence"))])
            source = plan.add("\(prefix)-beeps", .capsfilter, [("caps", .caps(GraphCaps.syncBeeps))])
            plan.chain([silence, source])
            plan.syncSignals[ElementHandle(source)] = .beep(late: input.beepDelay)
        case .tone, .v4l2, .testPattern, .file, .pipewire, .screen, .screencast, .network:
            // A tone of no frequency (`synthetic: silence`), and silence for a camera given as a microphone.
            source = plan.add("\(prefix)-src", .audiotestsrc, [("is-live", .bool(true)), ("wave", .string("silence"))])
        }
        var chain = [input.addedNoise.map { addNoise($0, to: source, prefix: prefix, plan: &plan) } ?? source]
        if configuration.deviceLoss.action == .continue, input.device.isSoundDevice {
            // A card that comes back is asked for the format it had: the keeper fixes this filter's caps
            // to it when the card goes (a loopback card, for one, pairs its sides by the first to open).
            let format = plan.add("\(prefix)-format", .capsfilter)
            chain.append(format)
            let node = plan.node(source)!
            plan[input: input.id].kept = .init(inputID: input.id, source: ElementHandle(source), recipe: .element(node.factory, node.properties),
                                          next: ElementHandle(format), selector: nil, end: ElementHandle(format))
        }
        let convert = plan.add("\(prefix)-convert", .audioconvert)
        plan[input: input.id].soundSource = ElementHandle(convert)
        let resample = plan.add("\(prefix)-resample", .audioresample)
        let caps = plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(GraphCaps.sound(channels: 1)))])
        let queue = plan.add("\(prefix)-queue", .queue, GraphBuilder.leakyQueue(buffers: GraphBuilder.microphoneQueueBuffers))
        plan.chain(chain + [convert, resample, caps, queue])
        return queue
    }

    /// A synthetic microphone's sound with white noise mixed in, `level` dBFS of it (RMS): something for
    /// noise suppression to take away. Uniform noise's RMS is its peak over √3.
    private func addNoise(_ level: Double, to sound: String, prefix: String, plan: inout GraphPlan) -> String {
        let mix = plan.add("\(prefix)-noise-mix", .audiomixer)
        let noise = plan.add("\(prefix)-noise", .audiotestsrc, [
            ("is-live", .bool(true)), ("wave", .string("white-noise")), ("volume", .double(min(1, pow(10, level / 20) * 3.0.squareRoot()))),
        ])
        let caps = plan.add("\(prefix)-noise-caps", .capsfilter, [("caps", .caps(GraphCaps.syncBeeps))])
        plan.chain([noise, caps])
        plan.link(sound, to: mix, "sink_0")
        plan.link(caps, to: mix, "sink_1")
        return mix
    }

    /// A network camera's sound: it comes over the camera's connection, from the source the camera's
    /// keeper makes (`CameraSound`), into a switch whose first input is silence. The silence is live
    /// from the start, so the branch answers the mixers' latency query before the camera's source is
    /// made, and it is what the microphone's tracks carry while the camera is lost. Both inputs are the
    /// session's sound already: the switch changes nothing downstream.
    private func addCameraSound(of camera: String, prefix: String, to plan: inout GraphPlan) -> String {
        let sound = GraphCaps.sound(channels: 1)
        let silence = [plan.add("\(prefix)-src", .audiotestsrc, [("is-live", .bool(true)), ("wave", .string("silence"))]),
                       plan.add("\(prefix)-silence-caps", .capsfilter, [("caps", .caps(sound))])]
        let selector = plan.add("\(prefix)-switch", .inputSelector, [("sync-streams", .bool(false))])
        plan.chain(silence)
        plan.link(silence[1], to: selector, "sink_0")
        let fromCamera = [plan.add("\(prefix)-convert", .audioconvert), plan.add("\(prefix)-resample", .audioresample),
                          plan.add("\(prefix)-caps", .capsfilter, [("caps", .caps(sound))])]
        plan.chain(fromCamera)
        let queue = plan.add("\(prefix)-queue", .queue, GraphBuilder.leakyQueue(buffers: GraphBuilder.microphoneQueueBuffers))
        plan.link(selector, to: queue)
        plan[input: camera].kept?.sound = .init(next: ElementHandle(fromCamera[0]), output: ElementHandle(fromCamera[2]), selector: ElementHandle(selector),
                                                silence: ElementHandle(silence[0]), end: ElementHandle(queue))
        return queue
    }
}
