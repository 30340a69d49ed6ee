import Capture
import Foundation

/// A microphone's meter as text: on a terminal a small bar, its loudness (RMS) filled and its peak
/// marked, from −60 dBFS to full scale, then the peak in dB; elsewhere (logs) both numbers.
enum SoundMeter {
    static let cells = 10
    static let bottom = -60.0

    static func text(_ microphone: String, _ level: SoundLevel, bar: Bool) -> String {
        guard bar else { return String(format: "%@ peak %.0f rms %.0f dBFS", microphone, level.peak, level.rms) }
        let loud = cell(level.rms), peak = cell(level.peak)
        let drawn = (0..<cells).map { index in index < loud ? "#" : index == peak - 1 && peak > loud ? "|" : "." }.joined()
        return String(format: "%@ [%@] %.0f", microphone, drawn, level.peak)
    }

    /// How many cells a level fills: none at or under the bottom, all at full scale.
    static func cell(_ level: Double) -> Int {
        Int(((max(bottom, min(0, level)) - bottom) / -bottom * Double(cells)).rounded())
    }
}
