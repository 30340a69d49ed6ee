/// Where a flash begins in a camera's pictures and a beep or clap in a microphone's sound, and how far
/// apart they are: what `pipcam sync-check` measures. Times are the recording's (seconds).
public enum SyncOnsets {
    /// The least rise of a camera's mean luma (of 255) taken as a flash, and of a microphone's sound
    /// (of full scale) taken as a beep: well over a camera's or a room's noise.
    public static let leastFlash = 20.0
    public static let leastBeep: Float = 0.02
    /// Onsets closer than this to the one before are the same flash or beep.
    public static let apart = 0.4

    /// The times flashes begin among pictures of mean luma `luma` taken at `times`. A picture partly lit
    /// (the flash began while it was exposed) is as much brighter as the share of its time lit, so the
    /// flash is placed that far into it: finer than a picture apart.
    public static func flashes(times: [Double], luma: [Double]) -> [Double] {
        guard times.count == luma.count, times.count > 2 else { return [] }
        let sorted = luma.sorted()
        // A flash lights a picture in ten or fewer: the darkest tenth is unlit, the brightest fiftieth lit.
        let dark = sorted[sorted.count / 10], bright = sorted[sorted.count - 1 - sorted.count / 50]
        guard bright - dark >= leastFlash else { return [] }
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
        let pictureTime = steps[steps.count / 2]
        var onsets: [Double] = []
        for index in 1..<times.count where luma[index] > dark + 0.1 * (bright - dark) && luma[index - 1] <= dark + 0.1 * (bright - dark) {
            let lit = min(1, (luma[index] - dark) / (bright - dark))
            let onset = times[index] + pictureTime * (1 - lit)
            if let last = onsets.last, onset - last < apart { continue }
            onsets.append(onset)
        }
        return onsets
    }

    /// The times beeps (or claps) begin in mono sound at `rate` samples a second, in buffers each with the
    /// time of its first sample: the first sample over a quarter of the loudest, after a stretch under it
    /// (so a beep under way when the sound starts is not taken as one).
    public static func beeps(_ buffers: [(start: Double, samples: [Float])], rate: Int) -> [Double] {
        var loudest: Float = 0
        for buffer in buffers { for sample in buffer.samples { loudest = max(loudest, abs(sample)) } }
        guard loudest >= leastBeep, rate > 0, let first = buffers.first else { return [] }
        let threshold = loudest / 4
        var onsets: [Double] = []
        var lastLoud = first.start
        for buffer in buffers {
            for (index, sample) in buffer.samples.enumerated() where abs(sample) > threshold {
                let time = buffer.start + Double(index) / Double(rate)
                if time - lastLoud >= apart { onsets.append(time) }
                lastLoud = time
            }
        }
        return onsets
    }

    /// How late the sound is against the picture: the median, over each beep with a flash within half a
    /// second of it, of the beep's time less the flash's; nil with fewer than two such pairs.
    public static func offset(flashes: [Double], beeps: [Double]) -> (seconds: Double, pairs: Int)? {
        let differences = beeps.compactMap { beep -> Double? in
            guard let flash = flashes.min(by: { abs($0 - beep) < abs($1 - beep) }), abs(flash - beep) < 0.5 else { return nil }
            return beep - flash
        }.sorted()
        guard differences.count >= 2 else { return nil }
        return (differences[differences.count / 2], differences.count)
    }
}
