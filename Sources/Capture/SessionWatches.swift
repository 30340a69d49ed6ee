import CaptureGraph
import CaptureModel
import Foundation

/// What watches a running graph beside the session: its pressure each second, its clock against the
/// recording's limit, the disk its file fills, and its cameras going and coming back. Each reports to the session through the
/// closures it is given, and ends when the graph stops.
enum SessionWatches {
    /// How often pressure is sampled: often enough to react within seconds, rarely enough to cost nothing.
    static let pressureInterval: Duration = .seconds(1)

    /// How long past its limit a recording's clock may run before the clock stops it: the picture that
    /// reaches the limit stops it first, exact to the frame (`watchFile`), a few tenths of a second after.
    static let limitGrace: Duration = .milliseconds(500)

    /// Starts the watches of a graph that has begun to play: its pressure (not for a fast replay, which
    /// takes every core on purpose and waits instead of dropping), the disk its file fills, and the
    /// recording's limit. A watch stops the session only while `running` is still its graph.
    static func start(on running: RunningGraph, configuration: SessionConfiguration, limit: Duration?, of session: CaptureSession) {
        let report: @Sendable (SessionEvent) -> Void = { [weak session] in session?.eventContinuation.yield($0) }
        let stop: @Sendable () async -> Void = { [weak session] in
            guard let session, session.locked({ session.graph === running }) else { return }
            _ = try? await session.stopRunning()
        }
        var policy = configuration.throttlePolicy
        if configuration.replay == .fast { policy.isEnabled = false }
        running.attach(pressureWatch: pressure(of: running, policy: policy, apply: { [weak session] settings in
            guard let session else { return }
            try await ThrottleStep.apply(settings, to: running, in: session)
        },
                                               report: report))
        if let movie = configuration.recordedFile { disk(of: running, path: movie.path, report: report, stop: stop) }
        session.uploads.watch(running, configuration: configuration, report: report)
        if let limit { self.limit(limit + limitGrace, of: running, stop: stop) }
    }

    /// Samples the system and the running graph every `interval` while `running` runs, reports each
    /// sample, and steps the throttle ladder as `policy` says (`systemPressureState` and AVMultiCamPiP's
    /// response to it, in one place). A step that cannot be taken ends throttling, not the recording.
    static func pressure(of running: RunningGraph, policy: ThrottlePolicy, interval: Duration = pressureInterval,
                         apply: @escaping @Sendable (ThrottleSettings) async throws -> Void,
                         report: @escaping @Sendable (SessionEvent) -> Void) -> Task<Void, Never> {
        Task {
            var monitor = PressureMonitor()
            var controller = ThrottleController(policy: policy, frameRate: running.plan.frameRate)
            var applied = 0
            let counters = running.counters
            _ = monitor.update(system: SystemReader.snapshot(), frames: counters.pressureCounts, queueFill: counters.encoderQueueFill)
            while (try? await Task.sleep(for: interval)) != nil, !running.stopped.value {
                let time = running.elapsed
                let counts = counters.pressureCounts
                let reading = monitor.update(system: SystemReader.snapshot(), frames: counts, queueFill: counters.encoderQueueFill)
                if let event = controller.observe(reading, at: time) {
                    do {
                        try await apply(event.settings)
                        applied = event.step
                        report(.throttled(event))
                    } catch {
                        controller = ThrottleController(policy: ThrottlePolicy(isEnabled: false), frameRate: running.plan.frameRate)
                        report(.warning("throttling stopped: could not apply \(event.change): \(error)"))
                    }
                }
                report(.pressure(PressureSample(time: time, reading: reading, counts: counts,
                                                skipped: counters.skipped.value, throttleStep: applied)))
            }
        }
    }

    /// Calls `stop` once the pipeline's clock passes `limit`, whatever the cameras do: a recording whose
    /// pictures stopped coming (every camera a clip that played out, every camera optional and absent)
    /// would otherwise never see its picture reach the limit. Wakes at least once a second until the
    /// graph stops.
    static func limit(_ limit: Duration, of running: RunningGraph, stop: @escaping @Sendable () async -> Void) {
        Task {
            while !running.stopped.value {
                // The file's time: a pause holds it back.
                let left = limit - running.chapters.recorded(at: running.elapsed)
                if left <= .zero {
                    await stop()
                    return
                }
                try? await Task.sleep(for: min(left, .seconds(1)))
            }
        }
    }

    /// Checks twice a second how long the disk holding `path` lasts at the rate the file grows: warns
    /// once under ten minutes, and reports the disk full and calls `stop` while there is room left to
    /// finish the file.
    static func disk(of running: RunningGraph, path: String, report: @escaping @Sendable (SessionEvent) -> Void,
                     stop: @escaping @Sendable () async -> Void) {
        Task {
            var disk = DiskGuard(path: path)
            while !running.stopped.value {
                try? await Task.sleep(for: .milliseconds(500))
                let live = running.liveStatus()
                switch disk.check(fileSize: live.fileSize, elapsed: live.elapsed, freeBytes: FreeSpace.bytes(at: path)) {
                case .filling(let shortfall):
                    report(.warning("the disk is filling up: \(shortfall.room)"))
                case .full:
                    report(.runtimeError(.diskFull(path: path)))
                    await stop()
                    return
                case nil:
                    break
                }
            }
        }
    }

    /// Hears cameras in use going away and coming back: a kept camera's keeper acts on it at once; with
    /// `on-device-loss: stop`, the departure is reported (the camera's failure then ends the recording).
    static func cameras(of configuration: SessionConfiguration, running: RunningGraph,
                        report: @escaping @Sendable (SessionEvent) -> Void) -> CameraWatch? {
        let watched: [String: String] = Dictionary(uniqueKeysWithValues: configuration.inputs.compactMap { input in
            input.device.isCamera ? input.device.node.map { ($0, input.id) } : nil
        })
        guard !watched.isEmpty else { return nil }
        return CameraWatch { [weak running] change in
            guard let node = change.camera.node, let id = watched[node], let running else { return }
            let arrived: Bool
            switch change {
            case .left: arrived = false
            case .arrived: arrived = true
            }
            if running.keepsGoing(without: id) {
                running.device(atNode: node, arrived: arrived)
            } else if !arrived {
                report(.interrupted(input: id, reason: .removed, at: running.elapsed))
            }
        }
    }
}
