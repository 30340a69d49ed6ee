import CaptureModel

/// Finds changes that bring a configuration over budget back under 1, each with the cost it leads to,
/// in the order a person recording would accept them: same picture with a compressed camera mode
/// first, then cameras spread over controllers, then a lower frame rate, then fewer pixels.
public enum CostAdvisor {
    /// The changes that lower the cost of `configuration`, most acceptable first; empty when it fits.
    public static func remedies(for configuration: SessionConfiguration, buses: [String: UsbBus], budget: PixelBudget) throws -> [CostRemedy] {
        let cost = try configuration.hardwareCost(buses: buses, budget: budget)
        guard cost.isOverBudget else { return [] }
        var found: [CostRemedy] = []
        func consider(_ change: CostRemedy.Change, _ text: String) {
            let changed = change.applied(to: configuration)
            guard let after = try? changed.hardwareCost(buses: buses, budget: budget), after.total < cost.total - 0.005 else { return }
            found.append(CostRemedy(change: change, text: text, cost: after.total))
        }

        for part in cost.overBudgetBuses {
            let toMJPEG = part.cameras.compactMap { camera in
                configuration.input(camera.load.inputID).flatMap { mjpegMode(for: $0, load: camera.load) }
            }
            for mode in toMJPEG {
                consider(.cameraModes([mode]), "\(mode.inputID): use MJPEG, \(formatText(mode))")
            }
            if toMJPEG.count > 1 {
                consider(.cameraModes(toMJPEG), "\(toMJPEG.map(\.inputID).joined(separator: ", ")): use MJPEG on both")
            }
        }
        for part in cost.overBudgetBuses where part.cameras.count > 1 {
            let ids = part.cameras.map(\.load.inputID)
            var spread = buses
            for id in ids { spread[id] = UsbBus(id: "\(part.bus.id)/\(id)", speed: part.bus.speed) }
            if let after = try? configuration.hardwareCost(buses: spread, budget: budget), after.total < cost.total - 0.005 {
                let text = "plug \(ids.joined(separator: " and ")) into ports of different USB controllers (lsusb -t shows which ports share \(part.bus.id))"
                found.append(CostRemedy(change: .separateBuses(ids), text: text, cost: after.total))
            }
        }
        if let rate = lowerFrameRate(configuration, buses: buses, budget: budget) {
            consider(.frameRate(rate), frameRateText(rate, in: configuration))
        }
        for input in configuration.inputs where input.activeFormat != nil {
            if let smaller = smallerMode(for: input) {
                consider(.cameraModes([smaller]), "\(input.id): a smaller mode, \(formatText(smaller, pixelFormat: !input.device.formats.isEmpty))")
            }
        }
        for preset in smallerPresets(than: configuration.preset) {
            let before = found.count
            consider(.preset(preset), "a smaller picture: preset: \(preset.rawValue)")
            if found.count > before && found.last!.cost <= 1 { break }
        }
        return found
    }

    /// The configuration changed until it fits, with the changes made; throws when nothing pipcam can
    /// change makes it fit (e.g. cameras that must be moved to another controller).
    public static func fitted(_ configuration: SessionConfiguration, buses: [String: UsbBus], budget: PixelBudget) throws -> (SessionConfiguration, applied: [CostRemedy]) {
        var current = configuration
        var applied: [CostRemedy] = []
        for _ in 0..<6 {
            let options = try remedies(for: current, buses: buses, budget: budget).filter(\.isAutomatic)
            if options.isEmpty { break }
            let pick = options.first { $0.cost <= 1 } ?? options.min { $0.cost < $1.cost }!
            current = pick.applied(to: current)
            applied.append(pick)
            if pick.cost <= 1 { return (current, applied) }
        }
        let cost = try current.hardwareCost(buses: buses, budget: budget)
        if !cost.isOverBudget { return (current, applied) }
        throw CaptureError.overBudget(cost: cost.total)
    }

    // MARK: candidates

    typealias Mode = (inputID: String, format: VideoFormat, frameRate: Double)

    /// The smallest MJPEG mode the camera offers that covers its current size at its rate.
    static func mjpegMode(for input: DeviceInput, load: CameraLoad) -> Mode? {
        guard !load.isMJPEG else { return nil }
        let candidates = input.device.formats.filter {
            $0.isCompressed && $0.width >= load.width && $0.height >= load.height && offers($0, load.frameRate)
        }
        guard let format = candidates.min(by: { $0.pixels < $1.pixels }) else { return nil }
        return (input.id, VideoFormat(pixelFormat: format.pixelFormat, width: format.width, height: format.height, frameRates: [load.frameRate]), load.frameRate)
    }

    /// The next smaller mode, same pixel format and rate, of a camera given an explicit format.
    static func smallerMode(for input: DeviceInput) -> Mode? {
        guard let current = input.activeFormat else { return nil }
        let rate = input.activeFrameRate ?? current.maxFrameRate
        if input.device.formats.isEmpty {
            let half = VideoFormat(pixelFormat: current.pixelFormat, width: max(16, current.width / 2) & ~1,
                                   height: max(16, current.height / 2) & ~1, frameRates: [rate])
            return (input.id, half, rate)
        }
        let smaller = input.device.formats.filter { $0.pixelFormat == current.pixelFormat && $0.pixels < current.pixels && offers($0, rate) }
        guard let format = smaller.max(by: { $0.pixels < $1.pixels }) else { return nil }
        return (input.id, VideoFormat(pixelFormat: format.pixelFormat, width: format.width, height: format.height, frameRates: [rate]), rate)
    }

    /// The highest rate, in steps of 5 fps down to 15, that fits; else 15 when it lowers the cost.
    static func lowerFrameRate(_ configuration: SessionConfiguration, buses: [String: UsbBus], budget: PixelBudget) -> Double? {
        let current = configuration.effectiveFrameRate
        let candidates = stride(from: (current / 5).rounded(.up) * 5 - 5, through: 15, by: -5).filter { $0 < current - 0.01 }
        for rate in candidates {
            let changed = CostRemedy.Change.frameRate(rate).applied(to: configuration)
            if let cost = try? changed.hardwareCost(buses: buses, budget: budget), !cost.isOverBudget { return rate }
        }
        return candidates.last
    }

    /// "lower the frame rate: frame-rate: 15", and what cameras given a format get (the highest rate
    /// their mode offers at or below it).
    static func frameRateText(_ rate: Double, in configuration: SessionConfiguration) -> String {
        let text = "lower the frame rate: frame-rate: \(VideoFormat.rateText(rate))"
        let changed = CostRemedy.Change.frameRate(rate).applied(to: configuration)
        let formatted = changed.inputs.filter { $0.activeFormat != nil }
        let rates = formatted.map { $0.activeFrameRate ?? $0.activeFormat!.maxFrameRate }
        if formatted.isEmpty { return text }
        if rates.allSatisfy({ abs($0 - rate) < 0.01 }) { return text + ", and \(VideoFormat.rateText(rate)) in each camera's format" }
        return text + "; in the cameras' formats: " + zip(formatted, rates).map { "\($0.id) \(VideoFormat.rateText($1))" }.joined(separator: ", ")
    }

    static func smallerPresets(than preset: SessionPreset) -> [SessionPreset] {
        let order: [SessionPreset] = [.hd1080, .hd720, .medium, .low]
        let size = preset.outputSize.width * preset.outputSize.height
        return order.filter { $0.outputSize.width * $0.outputSize.height < size }
    }

    static func offers(_ format: VideoFormat, _ rate: Double) -> Bool {
        format.frameRates.isEmpty || format.frameRates.contains { abs($0 - rate) < 0.01 }
    }

    /// The mode as a description's camera `format` (without a pixel format for cameras that take any).
    static func formatText(_ mode: Mode, pixelFormat: Bool = true) -> String {
        "format: {width: \(mode.format.width), height: \(mode.format.height), frame-rate: \(VideoFormat.rateText(mode.frameRate))"
            + (pixelFormat ? ", pixel-format: \(mode.format.pixelFormat)}" : "}")
    }
}
