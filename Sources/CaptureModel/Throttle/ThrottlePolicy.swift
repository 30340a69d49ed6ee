/// How a recording lightens itself under load (the description's `throttle:` section).
public struct ThrottlePolicy: Sendable, Equatable {
    public var isEnabled: Bool
    /// The lowest frame rate frame-rate steps go to.
    public var floorFrameRate: Double
    /// How long pressure must stay serious or worse before each step down. Long enough that a burst
    /// (a key frame, another program starting) is not mistaken for lasting load.
    public var stepDownAfter: Duration
    /// How long pressure must stay nominal before each step back up. Much longer than a step down:
    /// losing frames is worse than keeping a lighter picture a little longer.
    public var restoreAfter: Duration
    public var steps: [ThrottleStep]

    public init(isEnabled: Bool = true, floorFrameRate: Double = 15, stepDownAfter: Duration = .seconds(3),
                restoreAfter: Duration = .seconds(15), steps: [ThrottleStep] = ThrottleStep.standard) {
        self.isEnabled = isEnabled
        self.floorFrameRate = floorFrameRate
        self.stepDownAfter = stepDownAfter
        self.restoreAfter = restoreAfter
        self.steps = steps
    }

    /// The rungs for a session configured at `frameRate`.
    public func ladder(frameRate: Double) -> ThrottleLadder {
        ThrottleLadder(frameRate: frameRate, steps: steps, floor: floorFrameRate)
    }
}
