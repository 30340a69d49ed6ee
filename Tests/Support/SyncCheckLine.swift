import Foundation

/// What `pipcam sync-check` says of one microphone: "NAME is N ms late against CAMERA (…)", "… N ms early
/// against …" or "… in step with …".
public enum SyncCheckLine {
    /// The microphone's lateness in milliseconds (negative when early), or nil when no line names it.
    public static func lateness(of name: String, in output: String) -> Int? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("\(name) is ") }) else { return nil }
        let words = line.split(separator: " ")
        guard words.count > 4 else { return nil }
        if words[2] == "in" { return 0 }
        guard let figure = Int(words[2]) else { return nil }
        return words[4] == "early" ? -figure : figure
    }
}
