/// Picks the mode to ask of each camera. The order of concerns is what a person recording wants:
/// a fluid frame rate first (a camera's largest mode is often 2–5 fps), then enough pixels for the
/// place the camera is shown, then no more pixels than that (USB bandwidth, CPU), then raw over MJPEG
/// (no decoding) when both serve.
package enum FormatChooser {
    /// Below this a recording looks choppy, so a smaller mode at a fluid rate wins over a larger one.
    package static let fluidFrameRate = 24.0

    package static func choose(for device: CaptureDevice, width: Int, height: Int, frameRate: Double) -> CaptureMode {
        best(among: device.formats, width: width, height: height, frameRate: frameRate)
            ?? CaptureMode(pixelFormat: nil, width: width, height: height, frameRate: frameRate)
    }

    /// The mode closest to `mode` among those a camera offers now, by the same concerns as `choose`, of
    /// the same kind (raw stays raw, MJPEG stays MJPEG: the decoder after the camera is already there), and
    /// of the same pixel format when two serve alike. `mode` itself when it is offered; nil when nothing of
    /// its kind is. A camera that comes back after a loss offering other modes (another model on the same
    /// port, a firmware reset) is asked for this one.
    package static func nearest(to mode: CaptureMode, among formats: [VideoFormat]) -> CaptureMode? {
        let compressed = mode.pixelFormat == "MJPG"
        let sameKind = formats.filter { $0.isCompressed == compressed }
        if sameKind.contains(where: { $0.pixelFormat == mode.pixelFormat && $0.width == mode.width && $0.height == mode.height
            && $0.frameRates.contains { abs($0 - mode.frameRate) < 0.01 } }) {
            return mode
        }
        // The same pixel format first, when it serves as well as any other.
        let ordered = sameKind.filter { $0.pixelFormat == mode.pixelFormat } + sameKind.filter { $0.pixelFormat != mode.pixelFormat }
        return best(among: ordered, width: mode.width, height: mode.height, frameRate: mode.frameRate)
    }

    /// The best mode among `formats` for a place of this size and rate; nil when none is usable. Of two
    /// that serve alike, the first listed wins.
    private static func best(among formats: [VideoFormat], width: Int, height: Int, frameRate: Double) -> CaptureMode? {
        var best: (mode: CaptureMode, key: [Double])?
        for format in formats where format.pixelFormat == "MJPG" || rawFormats.contains(format.pixelFormat) {
            for rate in format.frameRates {
                let coverage = min(1, Double(format.width) / Double(width)) * min(1, Double(format.height) / Double(height))
                let rank = rateRank(rate, target: frameRate)
                let key: [Double] = [
                    rank.fluid,                                         // fluid motion
                    coverage,                                           // sharp enough for where it is shown
                    rank.closeness,                                     // the rate closest above the target
                    -Double(format.pixels),                             // no bigger than needed
                    format.isCompressed ? 0 : 1,                        // raw needs no decoding
                ]
                if best == nil || best!.key.lexicographicallyPrecedes(key) {
                    best = (CaptureMode(pixelFormat: format.pixelFormat, width: format.width, height: format.height, frameRate: rate), key)
                }
            }
        }
        return best?.mode
    }

    /// The rate among those a mode offers that best serves `target`, by the same rule as `choose`.
    package static func rate(among rates: [Double], target: Double) -> Double? {
        rates.max { rateRank($0, target: target) < rateRank($1, target: target) }
    }

    /// How well a rate serves a target: fluid motion first, then the rate closest above the target.
    private static func rateRank(_ rate: Double, target: Double) -> (fluid: Double, closeness: Double) {
        let fluid = min(target, fluidFrameRate)
        return (rate >= fluid - 0.01 ? 1 : rate / fluid, rate >= target - 0.01 ? -rate : rate - 1000)
    }

    /// Raw formats videoconvert and compositor handle (the common webcam ones).
    package static let rawFormats: Set<String> = ["YUY2", "UYVY", "YVYU", "NV12", "NV21", "I420", "YV12", "RGB", "BGR", "RGBx", "BGRx", "xRGB", "xBGR", "GRAY8", "Y42B", "Y444", "NV16", "RGB16", "BGR16"]
}
