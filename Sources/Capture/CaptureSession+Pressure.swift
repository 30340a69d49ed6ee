import CaptureGraph
import CaptureModel
import Foundation

extension CaptureSession {
    /// How often pressure is sampled: often enough to react within seconds, rarely enough to cost nothing.
    static let pressureInterval: Duration = .seconds(1)

    /// Samples the system and the running graph once a second while `running` runs, reports each
    /// sample, and steps the throttle ladder as the configuration's policy says (`systemPressureState`
    /// and AVMultiCamPiP's response to it, in one place).
    func watchPressure(of running: RunningGraph, policy: ThrottlePolicy) -> Task<Void, Never> {
        Task { [weak self] in
            var monitor = PressureMonitor()
            var controller = ThrottleController(policy: policy, frameRate: running.plan.frameRate)
            var applied = 0
            _ = monitor.update(system: SystemReader.snapshot(), frames: running.counters.pressureCounts, queueFill: running.counters.encoderQueueFill)
            while (try? await Task.sleep(for: Self.pressureInterval)) != nil {
                guard let self, !running.stopped.value else { return }
                let time = running.elapsed
                let counts = running.counters.pressureCounts
                let reading = monitor.update(system: SystemReader.snapshot(), frames: counts, queueFill: running.counters.encoderQueueFill)
                if let event = controller.observe(reading, at: time) {
                    do {
                        try await applyThrottle(event.settings, to: running)
                        applied = event.step
                        eventContinuation.yield(.throttled(event))
                    } catch {
                        // A step that cannot be taken must not cost the recording: it goes on as it is.
                        controller = ThrottleController(policy: ThrottlePolicy(isEnabled: false), frameRate: running.plan.frameRate)
                        eventContinuation.yield(.warning("throttling stopped: could not apply \(event.change): \(error)"))
                    }
                }
                eventContinuation.yield(.pressure(PressureSample(time: time, reading: reading, counts: counts,
                                                                 skipped: running.counters.skipped.value, throttleStep: applied)))
            }
        }
    }

    /// Applies a throttle rung to the running graph, live: camera modes through their caps filters, the
    /// picture rate by skipping pictures before the encoder. Runs between commits, never during one.
    func applyThrottle(_ settings: ThrottleSettings, to running: RunningGraph) async throws {
        try await operations.run {
            guard self.locked({ self.graph === running }) else { return }
            let configured = running.plan.frameRate
            var candidate = self.configuration
            let isFull = settings.insetScale >= 1 && settings.mainScale >= 1 && settings.frameRate >= configured - 0.01
            candidate.throttle = isFull ? nil : settings
            let plan = try candidate.graphPlan()
            guard plan.structureKey == running.plan.structureKey else {
                throw CaptureError.invalidConfiguration("the step would change the graph's structure")
            }
            try running.apply(plan)
            running.limitPictureRate(settings.frameRate < configured - 0.01 ? settings.frameRate : nil)
            self.setCommitted(candidate)
        }
    }
}
