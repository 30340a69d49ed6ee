import CaptureGraph
import CaptureModel
import Foundation

/// A throttle rung applied to a session's running graph, live: camera modes through their caps filters,
/// the picture rate by skipping pictures before the encoder. Runs between commits, never during one.
enum ThrottleStep {
    static func apply(_ settings: ThrottleSettings, to running: RunningGraph, in session: CaptureSession) async throws {
        try await session.operations.run {
            guard session.locked({ session.graph === running }) else { return }
            let configured = running.plan.frameRate
            var candidate = session.configuration
            let isFull = settings.insetScale >= 1 && settings.mainScale >= 1 && settings.frameRate >= configured - 0.01
            candidate.throttle = isFull ? nil : settings
            let plan = try candidate.graphPlan()
            guard plan.structureKey == running.plan.structureKey else {
                throw CaptureError.invalidConfiguration("the step would change the graph's structure")
            }
            try running.apply(plan)
            running.limitPictureRate(settings.frameRate < configured - 0.01 ? settings.frameRate : nil)
            session.setCommitted(candidate)
        }
    }
}
