/// The YAML a description may use: plain UTF-8 text, without anchors, aliases or tags. An alias lets a
/// small file expand into a huge one (the "billion laughs"), and a tag turns a value into a type nobody
/// reading the file would expect; neither has a use in a description. Checked before parsing, so each
/// refusal is one line at the true line and column.
enum YAMLSubset {
    /// What the file's bytes are in if not UTF-8 (a UTF-16 byte-order mark says so).
    static func encodingProblem(_ data: [UInt8]) -> String? {
        data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) ? "the file is UTF-16: save it as UTF-8" : nil
    }

    /// What the text uses that a description may not, with its line and column (from 1).
    static func problem(in text: String) -> (line: Int, column: Int, message: String)? {
        if let (line, column) = position(of: { $0 == 0 }, in: text) {
            return (line, column, "a NUL character: a description is plain text")
        }
        if let (line, column) = position(of: { $0 == 0xFFFD }, in: text) {
            return (line, column, "bytes that are not UTF-8: save the description as UTF-8")
        }
        // The lines of a block scalar ("label: |") are text: they are skipped while indented past its key.
        var blockIndent: Int?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            if let block = blockIndent {
                if line.allSatisfy({ $0 == " " }) || indent > block { continue }
                blockIndent = nil
            }
            if let (column, indicator) = valueIndicator(in: Substring(line)) {
                let what = indicator == "!" ? "a tag" : indicator == "&" ? "an anchor" : "an alias"
                return (index + 1, column, "\(what) ('\(indicator)…'): a description writes each value out, without anchors, aliases or tags")
            }
            let content = line.split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if content.hasSuffix("|") || content.hasSuffix(">") || content.range(of: #"[|>][-+0-9]*$"#, options: .regularExpression) != nil,
               content.contains(": ") || content.hasPrefix("- ") || content == "|" || content == ">" {
                blockIndent = indent
            }
        }
        return nil
    }

    /// The first character of `text` for which `matches` holds, as a line and column.
    private static func position(of matches: (UInt32) -> Bool, in text: String) -> (Int, Int)? {
        var line = 1, column = 1
        for scalar in text.unicodeScalars {
            if matches(scalar.value) { return (line, column) }
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return nil
    }

    /// Where a node of this line starts with an anchor (&), an alias (*) or a tag (!): after the
    /// indentation and any "- ", after "key: ", or after "[", "{" or "," inside a flow collection. Quoted
    /// text and comments are skipped; an indicator inside a plain value ("Q&A", "Hi!") is text.
    private static func valueIndicator(in line: Substring) -> (column: Int, indicator: Character)? {
        var atNodeStart = true
        var flowDepth = 0
        var quote: Character?
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            defer { previous = character }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == " " || character == "\t" { continue }
            if character == "#" && (previous == " " || previous == "\t" || offset == 0) { return nil }
            if atNodeStart {
                switch character {
                case "&", "*", "!": return (offset + 1, character)
                case "\"", "'": quote = character; atNodeStart = false; continue
                case "-" where offset + 1 == line.count || line.dropFirst(offset + 1).first == " ": continue
                case "[", "{": flowDepth += 1; continue
                default: break
                }
            }
            switch character {
            case ":": atNodeStart = true
            case "[" where flowDepth > 0, "{" where flowDepth > 0: flowDepth += 1; atNodeStart = true
            case ",": atNodeStart = flowDepth > 0
            case "]", "}": flowDepth = max(0, flowDepth - 1); atNodeStart = false
            default: atNodeStart = false
            }
        }
        return nil
    }
}
