import Yams

/// Reads a YAML document with every value's position at hand, so errors can point at line and column
/// and list the keys or values that would have been accepted.
struct YAMLReader {
    let file: String
    let node: Node
    /// Dotted path of the value, e.g. "cameras[1].format.width".
    let key: String

    static func load(_ text: String, file: String) throws -> YAMLReader? {
        do {
            guard let node = try Yams.compose(yaml: text) else { return nil }
            return YAMLReader(file: file, node: node, key: "document")
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
                throw DescriptionError(file: file, line: mark.line, column: mark.column, key: "syntax", message: problem)
            case .duplicatedKeysInMapping(let duplicates, let context):
                let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
                throw DescriptionError(file: file, line: context.mark.line, column: context.mark.column, key: "syntax",
                                       message: "\(keys) given twice in one mapping")
            default:
                // Yams's own text can quote the whole file: the first line says what went wrong.
                let first = "\(error)".split(separator: "\n").first.map(String.init) ?? "not YAML"
                throw DescriptionError(file: file, line: 1, column: 1, key: "syntax", message: first)
            }
        }
    }

    var location: SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, key: key)
    }

    func error(_ message: String) -> DescriptionError { location.error(message) }

    /// The entries of a mapping, after checking every key is one of `allowed`.
    func mapping(allowed: [String]) throws -> [String: YAMLReader] {
        guard let mapping = node.mapping else { throw error("expected a mapping with keys \(allowed.joined(separator: ", "))") }
        var result: [String: YAMLReader] = [:]
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? ""
            let child = YAMLReader(file: file, node: value, key: key == "document" ? name : "\(key).\(name)")
            guard allowed.contains(name) else {
                throw YAMLReader(file: file, node: keyNode, key: child.key)
                    .error("unknown key '\(name)' (valid keys: \(allowed.joined(separator: ", ")))")
            }
            guard result[name] == nil else { throw child.error("'\(name)' is given twice") }
            result[name] = child
        }
        return result
    }

    /// A mapping whose keys are the user's own (a camera's controls), in the order written.
    func pairs() throws -> [(key: String, value: YAMLReader)] {
        guard let mapping = node.mapping else { throw error("expected a mapping of names to values") }
        return mapping.map { keyNode, value in
            let name = keyNode.string ?? ""
            return (name, YAMLReader(file: file, node: value, key: "\(key).\(name)"))
        }
    }

    func sequence() throws -> [YAMLReader] {
        guard let sequence = node.sequence else { throw error("expected a list") }
        return sequence.enumerated().map { YAMLReader(file: file, node: $1, key: "\(key)[\($0)]") }
    }

    func string() throws -> String {
        guard let scalar = node.scalar else { throw error("expected a text value") }
        return scalar.string
    }

    func int(in range: ClosedRange<Int>) throws -> Int {
        guard let value = node.int else { throw error("expected a whole number, got '\(node.string ?? "a list or mapping")'") }
        guard range.contains(value) else { throw error("\(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    func double(in range: ClosedRange<Double>) throws -> Double {
        guard let value = node.float ?? node.int.map(Double.init) else {
            throw error("expected a number, got '\(node.string ?? "a list or mapping")'")
        }
        guard range.contains(value) else { throw error("\(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// A time (`DurationText`) within `range`; the error says the form and the bounds.
    func duration(in range: ClosedRange<Duration>, bare: DurationText.Unit) throws -> Duration {
        let text = node.scalar?.string ?? "a list or mapping"
        guard let value = DurationText.parse(text, bare: bare), range.contains(value) else {
            throw error("expected a time from \(DurationText.text(range.lowerBound)) to \(DurationText.text(range.upperBound)) "
                + "(like 120ms, 2s or 2m; a bare number is \(bare.name)), got '\(SecretText.hint(text))'")
        }
        return value
    }

    func bool() throws -> Bool {
        guard let value = node.bool else { throw error("expected true or false, got '\(node.string ?? "a list or mapping")'") }
        return value
    }

    /// One of a fixed set of words.
    func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let text = try string()
        guard let value = T(rawValue: text) else {
            throw error("'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
