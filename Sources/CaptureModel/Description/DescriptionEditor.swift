import Foundation

/// Changes a description's text in place, keeping everything else as it was written (comments, order,
/// spacing, line ends): what `sync-check --write` does to set each microphone's `offset:`.
public enum DescriptionEditor {
    /// A change the editor cannot make in the text as it is written.
    public struct Unwritable: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The text with `offset: N` (milliseconds) set in each named microphone's entry: its `offset:` line
    /// changed when it has one, else one added under its `name:`. Entries must be written in block style
    /// (`- name: voice` and a key per line), as pipcam's examples are.
    public static func settingOffsets(_ offsets: [String: Int], in text: String) throws -> String {
        let lineEnd = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: lineEnd)
        guard let list = lines.firstIndex(where: { $0.hasPrefix("microphones:") }) else {
            throw Unwritable(message: "the description has no 'microphones:' to set an offset in")
        }
        for (name, milliseconds) in offsets.sorted(by: { $0.key < $1.key }) {
            guard let entry = entries(in: lines, after: list).first(where: { $0.name == name }) else {
                throw Unwritable(message: "microphone '\(name)' is not written as '- name: \(name)' under 'microphones:'; add 'offset: \(milliseconds)' to it by hand")
            }
            let indent = String(repeating: " ", count: entry.column)
            if let existing = entry.lines.first(where: { key(of: lines[$0], column: entry.column) == "offset" }) {
                // What follows the old value (spaces and a comment) stays as it was.
                let line = lines[existing]
                let prefix = String(line.prefix { $0 == " " || $0 == "-" })
                let afterKey = line.drop { $0 == " " || $0 == "-" }.dropFirst("offset:".count).drop { $0 == " " }
                lines[existing] = prefix + "offset: \(milliseconds)" + afterKey.drop { $0 != " " }
            } else {
                lines.insert(indent + "offset: \(milliseconds)", at: entry.nameLine + 1)
            }
        }
        return lines.joined(separator: lineEnd)
    }

    /// A list item: its lines, the column its keys are at, and its `name:` line and value.
    private struct Entry {
        var lines: Range<Int>
        let column: Int
        var name: String?
        var nameLine: Int
    }

    /// The items of the block list that starts after `list`, up to the next top-level key.
    private static func entries(in lines: [String], after list: Int) -> [Entry] {
        var entries: [Entry] = []
        var index = list + 1
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            let indentation = line.count - trimmed.count
            if !trimmed.isEmpty, !trimmed.hasPrefix("#"), indentation == 0, !trimmed.hasPrefix("-") { break }
            if trimmed.hasPrefix("- ") || trimmed == "-" {
                if let last = entries.last, indentation < last.column - 2 { break }
                if entries.last.map({ indentation == $0.column - 2 }) ?? true {
                    entries.append(Entry(lines: index..<index + 1, column: indentation + 2, name: nil, nameLine: index))
                }
            }
            if var entry = entries.popLast() {
                entry.lines = entry.lines.lowerBound..<index + 1
                if entry.name == nil, key(of: line, column: entry.column) == "name" {
                    entry.name = value(of: line)
                    entry.nameLine = index
                }
                entries.append(entry)
            }
            index += 1
        }
        return entries
    }

    /// The key a line holds at `column` (after a list's dash when it starts the item), if any.
    private static func key(of line: String, column: Int) -> String? {
        var rest = Substring(line)
        let spaces = rest.prefix { $0 == " " }.count
        if spaces == column - 2, rest.dropFirst(spaces).hasPrefix("- ") {
            rest = rest.dropFirst(column)
        } else if spaces == column {
            rest = rest.dropFirst(column)
        } else {
            return nil
        }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        return String(rest[..<colon])
    }

    /// A one-line value: after the key's colon, without a comment, quotes or spaces; nil when it is on
    /// the next line.
    private static func value(of line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        var text = line[line.index(after: colon)...]
        if let comment = text.range(of: " #") { text = text[..<comment.lowerBound] }
        let value = text.trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
        return value.isEmpty ? nil : value
    }
}
