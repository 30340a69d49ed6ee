/// Advice about what a camera sees, as the scene monitoring of a photo output: a camera whose picture
/// stays darker than `threshold` for `holdTime` is "too dark" (said once, until it brightens again).
public struct SceneMonitor: Sendable {
    public enum Advice: Sendable, Equatable {
        case tooDark(meanLuma: Double)
        case brightEnough(meanLuma: Double)
    }

    public var threshold: Double
    public var holdTime: Duration
    private var darkSince: Duration?
    private var advised = false

    public init(threshold: Double = 40, holdTime: Duration = .seconds(2)) {
        self.threshold = threshold
        self.holdTime = holdTime
    }

    /// Feeds one frame's mean luma; returns advice when the camera's state changes. Brightening back
    /// needs a margin above the threshold, so a picture on the edge does not flip back and forth.
    public mutating func observe(meanLuma: Double, at time: Duration) -> Advice? {
        if meanLuma < threshold {
            let since = darkSince ?? time
            darkSince = since
            if !advised && time - since >= holdTime {
                advised = true
                return .tooDark(meanLuma: meanLuma)
            }
        } else if meanLuma >= threshold + 5 {
            darkSince = nil
            if advised {
                advised = false
                return .brightEnough(meanLuma: meanLuma)
            }
        }
        return nil
    }
}
