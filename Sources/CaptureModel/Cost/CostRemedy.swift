/// One change that lowers a configuration's cost, with the cost it leads to: what `pipcam check`
/// suggests and what `over-budget: adjust` applies.
public struct CostRemedy: Sendable {
    public enum Change: Sendable {
        /// Ask these cameras for a different mode (MJPEG at the same size, or a smaller size).
        case cameraModes([(inputID: String, format: VideoFormat, frameRate: Double)])
        /// Record at a lower frame rate.
        case frameRate(Double)
        /// Record a smaller picture.
        case preset(SessionPreset)
        /// Plug these cameras into different USB controllers: advice only, pipcam cannot do it.
        case separateBuses([String])
    }

    public var change: Change
    /// What to do, in the words of the description file.
    public var text: String
    /// The total cost after the change.
    public var cost: Double

    package init(change: Change, text: String, cost: Double) {
        self.change = change
        self.text = text
        self.cost = cost
    }

    /// Whether pipcam can make the change itself.
    public var isAutomatic: Bool {
        if case .separateBuses = change { return false }
        return true
    }

    /// The configuration with the change made.
    public func applied(to configuration: SessionConfiguration) -> SessionConfiguration {
        change.applied(to: configuration)
    }
}

extension CostRemedy.Change {
    package func applied(to configuration: SessionConfiguration) -> SessionConfiguration {
        var changed = configuration
        switch self {
        case .cameraModes(let modes):
            for mode in modes {
                guard let index = changed.inputs.firstIndex(where: { $0.id == mode.inputID }) else { continue }
                changed.inputs[index].activeFormat = mode.format
                changed.inputs[index].activeFrameRate = mode.frameRate
            }
        case .frameRate(let rate):
            changed.frameRate = rate
            // Cameras given a format keep their own rate unless it is lowered too.
            for index in changed.inputs.indices {
                if let lower = Self.rate(of: changed.inputs[index], atMost: rate) { changed.inputs[index].activeFrameRate = lower }
            }
        case .preset(let preset):
            changed.preset = preset
        case .separateBuses:
            break
        }
        return changed
    }

    /// The highest rate at or below `limit` that an input with an explicit format can deliver, when
    /// that is below its current rate: any for a camera without a mode list, else one its mode offers.
    static func rate(of input: DeviceInput, atMost limit: Double) -> Double? {
        guard let format = input.activeFormat else { return nil }
        let current = input.activeFrameRate ?? format.maxFrameRate
        guard current > limit + 0.01 else { return nil }
        if input.device.formats.isEmpty { return limit }
        let mode = input.device.formats.first { $0.pixelFormat == format.pixelFormat && $0.width == format.width && $0.height == format.height }
        return mode?.frameRates.filter { $0 <= limit + 0.01 }.max()
    }
}
