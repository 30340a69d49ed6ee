import Foundation

/// ffmpeg's `astats` over chosen stretches of one audio stream of a file, in the file's time (as
/// `SyncOffsets.beepTimes` gives it): the stretches' RMS and peak in dBFS.
public enum SoundStats {
    public static func levels(path: String, audio: Int, stretches: [(start: Double, end: Double)]) throws -> (rms: Double, peak: Double) {
        precondition(!stretches.isEmpty)
        // 5 ms buffers, so a stretch is cut at 5 ms; each buffer whose start falls in a stretch is measured.
        let selected = stretches.map { String(format: "between(t\\,%.4f\\,%.4f)", $0.start, $0.end) }.joined(separator: "+")
        let result = try Command.run(["ffmpeg", "-hide_banner", "-copyts", "-i", path, "-map", "0:a:\(audio)", "-af",
                                      "aresample=first_pts=0,asetnsamples=n=240,aselect=\(selected),astats=measure_perchannel=0:measure_overall=RMS_level+Peak_level",
                                      "-f", "null", "-"])
        func value(_ name: String) throws -> Double {
            guard let line = result.error.split(separator: "\n").last(where: { $0.contains("\(name) dB:") }),
                  let number = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
                throw ProbeError("no \(name) from astats for audio \(audio) of \(path): \(result.error.suffix(400))")
            }
            return number
        }
        return (try value("RMS level"), try value("Peak level"))
    }

    /// The whole stream from `from` seconds on.
    public static func levels(path: String, audio: Int, from: Double) throws -> (rms: Double, peak: Double) {
        try levels(path: path, audio: audio, stretches: [(from, 1e6)])
    }
}
