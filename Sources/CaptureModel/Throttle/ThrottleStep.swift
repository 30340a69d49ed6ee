/// One way to lighten the session, as written in the description's `throttle.steps`.
public enum ThrottleStep: Sendable, Hashable {
    /// Capture the inset camera at this fraction of its full size.
    case insetSize(Double)
    /// Capture the main camera at this fraction of its full size.
    case mainSize(Double)
    /// Lower the frame rate by this many fps per step, as many steps as it takes to reach the floor.
    case frameRate(by: Double)

    /// AVMultiCamPiP's order: the inset costs least to lose, the main camera's sharpness next, and
    /// fluid motion last. Only the frame rate lightens the encoder: the picture keeps its size.
    public static let standard: [ThrottleStep] = [.insetSize(0.5), .mainSize(0.75), .frameRate(by: 10)]
}
