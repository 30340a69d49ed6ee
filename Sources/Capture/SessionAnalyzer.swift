import CaptureModel
import Dispatch
import Foundation
import Locking

/// Measures what every camera and microphone of a session delivers while it records: per frame, mean
/// luma and motion; per buffer of sound, RMS and peak per channel; and scene advice ("too dark").
/// It works through data outputs, so it never slows the recording: a busy analyzer skips frames
/// (their sequence numbers show it), the file keeps them all.
public final class SessionAnalyzer: Sendable {
    public enum Record: Sendable {
        case frame(device: String, time: Duration, sequence: Int, meanLuma: Double, motion: Double)
        case sound(device: String, time: Duration, sequence: Int, levels: SoundLevels)
        case advice(device: String, time: Duration, advice: SceneMonitor.Advice)
    }

    /// The size frames are analyzed at: small is cheap and enough for brightness and motion; nil takes
    /// the captured frames as they are, with no conversion.
    public let size: PixelSize?
    public let darkThreshold: Double
    private let report: @Sendable (Record) -> Void
    private let queues = Locked<[DispatchQueue]>([])

    public init(size: PixelSize? = PixelSize(width: 160, height: 90), darkThreshold: Double = 40,
                report: @escaping @Sendable (Record) -> Void) {
        self.size = size
        self.darkThreshold = darkThreshold
        self.report = report
    }

    /// Adds a data output for every connected camera and microphone of `configuration`.
    public func attach(to configuration: inout SessionConfiguration) {
        for input in configuration.inputs where configuration.connections.contains(where: { $0.inputPorts.contains(input.port) }) {
            let id = "analysis-\(input.id)"
            let queue = DispatchQueue(label: "pipcam.\(id)")
            queues.withValue { $0.append(queue) }
            if input.device.isCamera {
                let output = VideoDataOutput(id: id, pixelFormat: size == nil ? nil : .gray8, size: size)
                let state = CameraState(monitor: SceneMonitor(threshold: darkThreshold))
                output.setDelegate(queue: queue) { [report] frame in state.analyze(frame, report) }
                configuration.videoDataOutputs.append(output)
            } else {
                let output = AudioDataOutput(id: id, format: .float32)
                output.setDelegate(queue: queue) { [report] buffer in
                    guard let levels = try? SoundLevels(buffer) else { return }
                    report(.sound(device: buffer.microphoneID, time: buffer.presentationTime, sequence: buffer.sequenceNumber, levels: levels))
                }
                configuration.audioDataOutputs.append(output)
            }
            configuration.connections.append(Connection(from: input.port, to: id))
        }
    }

    /// Waits until every frame and buffer handed over so far has been analyzed and reported.
    public func drain() {
        for queue in queues.value { queue.sync {} }
    }
}

/// One camera's running measurements; touched only on that camera's analysis queue.
private final class CameraState: @unchecked Sendable {
    var statistics = LumaStatistics()
    var monitor: SceneMonitor

    init(monitor: SceneMonitor) { self.monitor = monitor }

    func analyze(_ frame: VideoDataFrame, _ report: (SessionAnalyzer.Record) -> Void) {
        guard let measured = try? statistics.measure(frame) else { return }
        report(.frame(device: frame.cameraID, time: frame.presentationTime, sequence: frame.sequenceNumber,
                      meanLuma: measured.meanLuma, motion: measured.motion))
        if let advice = monitor.observe(meanLuma: measured.meanLuma, at: frame.presentationTime) {
            report(.advice(device: frame.cameraID, time: frame.presentationTime, advice: advice))
        }
    }
}
