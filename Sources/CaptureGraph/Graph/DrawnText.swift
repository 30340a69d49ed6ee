/// Text drawn into a picture (camera labels, the preview's line). GStreamer's text overlays read their
/// text as Pango markup: a label "Q&A" would vanish with a warning every frame, and broken markup raises
/// a critical. pipcam's labels are plain text, so markup's characters are escaped, and control
/// characters, which markup refuses, become U+FFFD.
enum DrawnText {
    static func markup(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += "\n"
            default:
                let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                escaped.unicodeScalars.append(isControl ? "\u{FFFD}" : scalar)
            }
        }
        return escaped
    }
}
