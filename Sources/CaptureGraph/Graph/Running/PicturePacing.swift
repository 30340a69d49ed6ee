import CaptureModel
import GStreamer
import Locking

/// When the composed picture starts and at what pace it goes on: held back until every camera has a
/// frame in it (`PictureStartGate`), each camera's frames and the picture put on the frame grid, and
/// pictures beyond a throttle rung's rate skipped before the encoder (`PictureRateLimiter`), and those
/// the compositor is too late for never composed (`PictureDeadline`).
final class PicturePacing: Sendable {
    private let limiter: Locked<PictureRateLimiter>?
    /// The recording is ending: every picture still to come is composed, however late (`finish`).
    private let ending = Locked(false)

    init(plan: GraphPlan, configuration: SessionConfiguration, pipeline: Pipeline, skipped: FrameCounter, late: FrameCounter) throws {
        if configuration.replay != .fast {
            for (handle, rate) in plan.trackGrids { try pipeline[handle]?.staticPad("src").putFramesOnGrid(rate: Fraction(rate: rate)) }
        }
        guard let caps = plan.compositeSource.flatMap({ pipeline[$0] }) else {
            limiter = nil
            return
        }
        if let compositor = plan.compositor.flatMap({ pipeline[$0] }) { try Self.gateStart(of: compositor, plan: plan, configuration: configuration) }
        // Under a throttle rung, pictures beyond its rate are skipped before the encoder: the file keeps
        // its declared rate and every picture its timestamp, so the change needs no renegotiation.
        // The compositor is asked not to compose the pictures that will be skipped, and the request
        // stops there: the cameras' own filters would act on it too and drop frames it still needs.
        let limiter = Locked(PictureRateLimiter(configuredRate: plan.frameRate))
        self.limiter = limiter
        let upstream = try caps.staticPad("sink")
        try caps.staticPad("src").alignToFrameGrid(rate: Fraction(rate: plan.frameRate))
        // A fast replay's pictures keep to no clock.
        let deadline = configuration.replay == .fast ? nil
            : Locked(PictureDeadline(allowance: ProgramStage.compositorLatency(plan)))
        try caps.staticPad("src").addBufferProbe { [ending] time in
            guard let time else { return .pass }
            let asking = !ending.value
            let tooLate = deadline.flatMap { deadline in pipeline.runningTime.flatMap { now in deadline.withValue { $0.skipBefore(time, now: now, asking: asking) } } }
            // Every grid picture missing before this one is counted once: skipped if the throttle rung
            // asked for it, dropped otherwise (the compositor was too late for it).
            let decision = limiter.withValue { $0.decide(time) }
            for _ in 0..<decision.skipped { skipped.bump(nil) }
            for _ in 0..<(decision.missing - decision.skipped) { late.bump(nil) }
            if let until = [decision.skipBefore, tooLate].compactMap({ $0 }).max() {
                upstream.requestNoPicturesBefore(until, now: time)
            }
            if decision.keep { return .pass }
            skipped.bump(time)
            return .drop
        }
    }

    /// The picture starts once every camera has a frame in it (see `PictureStartGate`). A fast replay's
    /// compositor waits for every clip by itself. An optional camera that starts without its source is
    /// not waited for: its "waiting" picture's first text loads the fonts (0.3 to 0.6 s measured in the
    /// emulated VM), and the recording would begin that much late.
    private static func gateStart(of compositor: Element, plan: GraphPlan, configuration: SessionConfiguration) throws {
        let composed = plan.inputs.filter { $0.compositorPad != nil }
        // Not for a fast replay, nor for an optional camera that starts detached.
        let awaited = configuration.replay == .fast ? [] : composed.filter { $0.kept?.startsDetached != true }.map(\.id)
        let start = Locked(PictureStartGate(cameras: awaited.count, patience: configuration.deviceLoss.silenceTimeout))
        var inputs: [Pad] = []
        for input in composed {
            let pad = try compositor.staticPad(input.compositorPad!)
            pad.stopUpstreamQualityOfService()
            // The compositor shows, in each picture, the camera frame that begins within it: a camera
            // whose frames begin just after the picture's would be shown up to a frame early, and the
            // picture's move onto the grid adds up to half a frame more, ahead of the sound. Each camera
            // frame put on the grid first lands in the picture nearest to it. A fast replay's clips have
            // no clock to keep to: its pictures start on the grid already.
            if configuration.replay != .fast { pad.alignToFrameGrid(rate: Fraction(rate: plan.frameRate)) }
            if awaited.contains(input.id) { inputs.append(pad) }
        }
        try compositor.staticPad("src").addBufferProbe { [inputs] time in
            guard let time else { return .pass }
            let admitted = start.withValue { $0.admits(pictureAt: time, everyCameraShown: inputs.allSatisfy(\.hasFrameInLastPicture)) }
            return admitted ? .remove : .drop
        }
    }

    /// The recording's end is on its way: the pictures still to come are its last, and each reaches the
    /// file however late it is composed, so that the picture lasts as long as the sound.
    func finish() {
        ending.withValue { $0 = true }
    }

    /// Limits the pictures that reach the encoder to `rate` per second; nil lifts the limit.
    func limit(to rate: Double?) {
        limiter?.withValue { $0.rate = rate }
    }
}
