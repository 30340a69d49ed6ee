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

    /// Whether pipcam can make the change itself.
    public var isAutomatic: Bool {
        if case .separateBuses = change { return false }
        return true
    }

    /// The configuration with the change made.
    public func applied(to configuration: SessionConfiguration) -> SessionConfiguration {
        var changed = configuration
        switch change {
        case .cameraModes(let modes):
            for mode in modes {
                guard let index = changed.inputs.firstIndex(where: { $0.id == mode.inputID }) else { continue }
                changed.inputs[index].activeFormat = mode.format
                changed.inputs[index].activeFrameRate = mode.frameRate
            }
        case .frameRate(let rate):
            changed.frameRate = rate
            for index in changed.inputs.indices where changed.inputs[index].activeFormat != nil {
                let input = changed.inputs[index]
                let current = input.activeFrameRate ?? input.activeFormat!.maxFrameRate
                guard current > rate else { continue }
                let offered = input.activeFormat!.frameRates
                // A camera with a mode list offers only some rates; the highest at or below the new one.
                let matching = input.device.formats.first { $0.pixelFormat == input.activeFormat!.pixelFormat && $0.width == input.activeFormat!.width && $0.height == input.activeFormat!.height }
                let choices = matching?.frameRates ?? (input.device.formats.isEmpty ? [rate] : offered)
                if let lower = choices.filter({ $0 <= rate + 0.01 }).max() { changed.inputs[index].activeFrameRate = lower }
            }
        case .preset(let preset):
            changed.preset = preset
        case .separateBuses:
            break
        }
        return changed
    }
}
