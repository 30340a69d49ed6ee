import CaptureModel
import Foundation

/// Names the machine gives its devices, read where it keeps them: a sound card's by /proc/asound, the
/// camera nodes in /dev.
extension CaptureDevice {
    /// The id pipcam lists a sound card's device by, from its ALSA name: "hw:1,0", "plughw:Loopback,1" →
    /// "alsa:Loopback,0", "alsa:Loopback,1": the card by its name, which stays when cards are renumbered
    /// (a number is read as the name /proc/asound gives that card). Nil for what is no card's name.
    public static func alsaID(of name: String, cards: String = "/proc/asound") -> String? {
        guard let colon = name.firstIndex(of: ":"), ["hw", "plughw"].contains(name[..<colon]) else { return nil }
        let parts = name[name.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let card = parts.first, !card.isEmpty else { return nil }
        var cardID = card
        if Int(card) != nil, let text = try? String(contentsOfFile: "\(cards)/card\(card)/id", encoding: .utf8) {
            cardID = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (["alsa:\(cardID)"] + parts.dropFirst()).joined(separator: ",")
    }

    /// The V4L2 camera nodes in `folder` (video0, video1, …), in the system's order.
    package static func cameraNodes(in folder: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("video") && $0.count > 5 && $0.dropFirst(5).allSatisfy(\.isNumber) }
            .sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
            .map { "\(folder)/\($0)" }
    }
}
