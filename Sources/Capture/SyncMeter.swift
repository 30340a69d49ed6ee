import CaptureModel
import Dispatch
import Locking

/// Collects what `sync-check` measures while a session runs: each camera's mean luma per picture (at a
/// small size: a flash lights the whole picture) and each microphone's sound as it is recorded, before
/// its offset. Taps are data outputs, so the measuring never slows the session.
public final class SyncMeter: Sendable {
    /// One microphone against one camera.
    public struct Measure: Sendable {
        public let microphone: String
        public let camera: String
        /// How late the microphone is (its beeps after the camera's flashes), in seconds.
        public let offset: Double
        public let pairs: Int
    }

    private let pictures = Locked<[String: [(time: Double, luma: Double)]]>([:])
    private let sound = Locked<[String: (rate: Int, buffers: [(start: Double, samples: [Float])])]>([:])
    private let queue = DispatchQueue(label: "pipcam.sync-meter")

    public init() {}

    /// Adds a data output for every connected camera and microphone of `configuration`.
    public func attach(to configuration: inout SessionConfiguration) {
        for input in configuration.inputs where configuration.connections.contains(where: { $0.inputPorts.contains(input.port) }) {
            let id = "sync-\(input.id)"
            if input.device.isCamera {
                let output = VideoDataOutput(id: id, pixelFormat: .gray8, size: PixelSize(width: 160, height: 90), alwaysDiscardsLateVideoFrames: false)
                output.setDelegate(queue: queue) { [pictures] frame in
                    var statistics = LumaStatistics()
                    guard let measured = try? statistics.measure(frame) else { return }
                    pictures.withValue { $0[frame.cameraID, default: []].append((frame.presentationTime.seconds, measured.meanLuma)) }
                }
                configuration.videoDataOutputs.append(output)
            } else {
                let output = AudioDataOutput(id: id, format: .float32, channels: 1, alwaysDiscardsLateBuffers: false)
                output.setDelegate(queue: queue) { [sound] buffer in
                    guard let samples = try? buffer.floatSamples() else { return }
                    sound.withValue { $0[buffer.microphoneID, default: (buffer.sampleRate, [])].buffers.append((buffer.presentationTime.seconds, samples)) }
                }
                configuration.audioDataOutputs.append(output)
            }
            configuration.connections.append(Connection(from: input.port, to: id))
        }
    }

    /// Each microphone against each camera, once everything handed over has been read; a pair that
    /// shows too few flashes or beeps is left out.
    public func measures() -> (measures: [Measure], flashes: [String: Int], beeps: [String: Int]) {
        queue.sync {}
        let flashes = pictures.value.mapValues { frames in SyncOnsets.flashes(times: frames.map(\.time), luma: frames.map(\.luma)) }
        let beeps = sound.value.mapValues { SyncOnsets.beeps($0.buffers, rate: $0.rate) }
        var measures: [Measure] = []
        for microphone in beeps.keys.sorted() {
            for camera in flashes.keys.sorted() {
                guard let (offset, pairs) = SyncOnsets.offset(flashes: flashes[camera]!, beeps: beeps[microphone]!) else { continue }
                measures.append(Measure(microphone: microphone, camera: camera, offset: offset, pairs: pairs))
            }
        }
        return (measures, flashes.mapValues(\.count), beeps.mapValues(\.count))
    }
}
