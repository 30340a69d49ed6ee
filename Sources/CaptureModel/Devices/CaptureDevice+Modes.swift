extension CaptureDevice {
    /// Whether this camera can deliver `format` (at `rate`, or at a rate it offers at that size); nil
    /// when it can. A camera that lists no modes (drawn, a clip, on the network) takes any size and rate
    /// within pipcam's limits.
    func problem(delivering format: VideoFormat, rate: Double?) -> String? {
        guard isCamera else { return "'\(id)' is a microphone; formats apply to cameras" }
        // A format given without a rate runs at one the device offers at that size (GraphBuilder.captureMode).
        let wanted = rate ?? (format.frameRates.isEmpty ? nil : format.maxFrameRate)
        if formats.isEmpty {
            let widths = SessionLimits.cameraWidth, heights = SessionLimits.cameraHeight
            if !widths.contains(format.width) || !heights.contains(format.height) {
                return "camera '\(id)' cannot deliver \(format.width)x\(format.height) (\(widths.lowerBound)x\(heights.lowerBound) up to \(widths.upperBound)x\(heights.upperBound))"
            }
            if let wanted, !SessionLimits.frameRate.contains(wanted) {
                return "camera '\(id)' cannot deliver \(wanted) fps (\(SessionLimits.text(SessionLimits.frameRate)))"
            }
            return nil
        }
        let sameSize = formats.filter { $0.width == format.width && $0.height == format.height && $0.pixelFormat == format.pixelFormat }
        guard let mode = sameSize.first else {
            let offered = formats.map(\.description).joined(separator: "; ")
            return "camera '\(id)' has no mode \(format.pixelFormat) \(format.width)x\(format.height) (it offers: \(offered))"
        }
        if let wanted, !mode.frameRates.contains(where: { abs($0 - wanted) < 0.01 }) && !mode.frameRates.isEmpty {
            return "camera '\(id)' offers \(mode), not \(VideoFormat.rateText(wanted)) fps"
        }
        return nil
    }
}
