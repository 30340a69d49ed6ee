/// Text pipcam prints is plain text: names, paths and messages can come from a hostile file or a
/// device's USB descriptor, and an escape sequence in them would drive the terminal. Control characters
/// are written as `\x1B`-style escapes; line breaks and tabs stay.
enum TerminalText {
    static func plain(_ text: String) -> String {
        var printed = ""
        for scalar in text.unicodeScalars {
            let isControl = (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
            if isControl {
                printed += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                printed.unicodeScalars.append(scalar)
            }
        }
        return printed
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
