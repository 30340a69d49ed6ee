import Capture
import Locking
import Prometheus

/// The session in Prometheus's text format, for the monitoring a fleet of rooms already runs. Counts
/// that only grow are counters (`_total`); what is read at the moment of the scrape are gauges.
final class SessionMetrics: Sendable {
    private let session: CaptureSession
    private let registry = PrometheusCollectorRegistry()
    /// The last dropped count seen, so the counter grows by what is new and a new recording (whose count
    /// starts again at 0) never makes it go down.
    private let lastDropped = Locked(0)
    /// The last count of files uploaded, for its counter.
    private let lastSent = Locked(0)
    private let pressure = Locked<(level: PressureLevel, step: Int)?>(nil)

    init(session: CaptureSession) {
        self.session = session
        let configuration = session.configuration
        for input in configuration.inputs { _ = losses(input.id) }
        _ = droppedPictures
    }

    /// Events counted as they happen: a device lost, a pressure sample.
    func count(_ event: SessionEvent) {
        switch event {
        case .interrupted(let input, _, _): losses(input).increment()
        case .pressure(let sample): pressure.withValue { $0 = (sample.reading.level, sample.throttleStep) }
        default: break
        }
    }

    /// The text a scrape answers with.
    func text() -> String {
        let configuration = session.configuration
        let status = session.liveStatus()
        let recording = status != nil && configuration.movieFile != nil
        gauge("recording", "", "1 while a recording is being written", recording ? 1 : 0)
        gauge("recording", "seconds", "Time recorded into the current recording", recording ? status?.elapsed.seconds ?? 0 : 0)
        gauge("file", "bytes", "Size of the file being written", Double(recording ? status?.fileSize ?? 0 : 0))
        if let path = configuration.movieFile?.path, let free = FreeSpace.bytes(at: path) {
            gauge("free_disk", "bytes", "Free space on the recording's disk", Double(free))
        }
        if let status {
            let dropped = status.dropped
            let grown = lastDropped.withValue { last in
                defer { last = dropped }
                return dropped >= last ? dropped - last : dropped
            }
            droppedPictures.increment(by: Int64(grown))
        }
        for (inputID, lost) in status?.soundLost ?? [:] {
            registry.makeGauge(descriptor: Self.name("sound_lost", "seconds", "Sound lost on its way into the current recording"),
                               labels: [("input", inputID)]).set(to: lost.seconds)
        }
        let away = Set(status?.away.map(\.inputID) ?? [])
        for input in configuration.inputs {
            registry.makeGauge(descriptor: Self.name("device_lost", "", "1 while the input's device is lost"), labels: [("input", input.id)])
                .set(to: away.contains(input.id) ? 1 : 0)
        }
        if let pressure = pressure.value {
            gauge("pressure_level", "", "0 nominal, 1 fair, 2 serious, 3 critical, 4 shutdown", Double(pressure.level.rawValue))
            gauge("throttle_step", "", "How far the throttle has stepped down (0: not at all)", Double(pressure.step))
        }
        if let uploads = session.uploads.status {
            gauge("uploads_pending", "", "Finished files waiting to be uploaded, those failing among them", Double(uploads.pending))
            gauge("uploads_failing", "", "Files whose last upload failed (tried again)", Double(uploads.failing))
            let sent = lastSent.withValue { last in
                defer { last = uploads.done }
                return max(0, uploads.done - last)
            }
            registry.makeCounter(descriptor: Self.name("uploads_sent", "total", "Finished files uploaded")).increment(by: Int64(sent))
        }
        for stream in status?.streams ?? [] {
            registry.makeGauge(descriptor: Self.name("stream_live", "", "1 while the stream is live"), labels: [("stream", stream.stream)])
                .set(to: stream.state == .live ? 1 : 0)
        }
        return registry.emitToString()
    }

    private var droppedPictures: Counter {
        registry.makeCounter(descriptor: Self.name("pictures_dropped", "total", "Pictures that never reached the recording"))
    }

    private func losses(_ input: String) -> Counter {
        registry.makeCounter(descriptor: Self.name("device_losses", "total", "Times the input's device was lost"), labels: [("input", input)])
    }

    private func gauge(_ name: String, _ unit: String, _ help: String, _ value: Double) {
        registry.makeGauge(descriptor: Self.name(name, unit, help)).set(to: value)
    }

    /// `pipcam_NAME_UNIT`.
    private static func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "pipcam", metricName: name, unitName: unit, helpText: help)
    }
}
