/// Changes a description's text in place, keeping everything else as it was written (comments, order,
/// spacing): what `sync-check --write` does to set each microphone's `offset:`.
public enum DescriptionEditor {
    /// A change the editor cannot make in the text as it is written.
    public struct Unwritable: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The text with `offset: N` (milliseconds) set in each named microphone's entry: the line replaced
    /// when there is one, else added under the entry's `name:`. Entries must be written in block style
    /// (`- name: voice` and a key per line), as pipcam's examples are.
    public static func settingOffsets(_ offsets: [String: Int], in text: String) throws -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let list = lines.firstIndex(where: { $0.hasPrefix("microphones:") }) else {
            throw Unwritable(message: "the description has no 'microphones:' to set an offset in")
        }
        for (name, milliseconds) in offsets.sorted(by: { $0.key < $1.key }) {
            guard let (nameLine, column) = entry(named: name, in: lines, after: list) else {
                throw Unwritable(message: "microphone '\(name)' is not written as '- name: \(name)' under 'microphones:'; add 'offset: \(milliseconds)' to it by hand")
            }
            let indent = String(repeating: " ", count: column)
            var end = nameLine + 1
            while end < lines.count, Self.isInside(lines[end], column: column) { end += 1 }
            if let existing = (nameLine + 1..<end).first(where: { lines[$0].hasPrefix(indent + "offset:") }) {
                lines[existing] = indent + "offset: \(milliseconds)"
            } else {
                lines.insert(indent + "offset: \(milliseconds)", at: nameLine + 1)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The line of `- name: NAME` in the list that starts after `list`, and the column its keys are at.
    private static func entry(named name: String, in lines: [String], after list: Int) -> (line: Int, column: Int)? {
        var index = list + 1
        while index < lines.count {
            let line = lines[index]
            if let first = line.first, first != " ", first != "-", first != "#" { return nil }
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("- name:") || trimmed.hasPrefix("name:") {
                let value = trimmed.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: " \"'")
                if value == name {
                    let dash = line.count - trimmed.count
                    return (index, trimmed.hasPrefix("-") ? dash + 2 : dash)
                }
            }
            index += 1
        }
        return nil
    }

    /// Whether a line belongs to the entry whose keys are at `column`: blank, a comment, or indented to it.
    private static func isInside(_ line: String, column: Int) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return trimmed.isEmpty || (line.count - trimmed.count >= column && !trimmed.hasPrefix("-")) || (line.count - trimmed.count > column)
    }
}

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
