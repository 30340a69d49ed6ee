import Foundation

/// Reads pipcam's JSON the way other tools will: with Python's json module, which refuses `nan` and
/// control characters in strings, told also to refuse `NaN` and `Infinity` (it accepts them by default,
/// other readers do not) and keys out of sorted order (pipcam promises a stable order). JSONSerialization
/// is more lenient than that, so a test reading with it alone would pass on output jq rejects.
public enum StrictJSON {
    /// One JSON text (a whole file, or one line), as JSONSerialization objects: a non-finite number
    /// written as null comes back as NSNull.
    public static func parse(_ text: String) throws -> Any {
        guard let value = try read(text, lines: false).first else { throw ProbeError("no JSON value in \(text)") }
        return value
    }

    /// A JSON-lines text, one value per line.
    public static func parseLines(_ text: String) throws -> [Any] {
        try read(text, lines: true)
    }

    private static func read(_ text: String, lines: Bool) throws -> [Any] {
        let folder = try Paths.scratch("strict-json")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/input.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try Command.run(["python3", "-c", script, lines ? "lines" : "one", file])
        guard result.status == 0 else { throw ProbeError("not strict JSON (\(result.error.trimmingCharacters(in: .whitespacesAndNewlines))): \(text)") }
        guard let values = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [Any] else {
            throw ProbeError("python3 gave back no list: \(result.output)")
        }
        return values
    }

    private static let script = """
        import json, sys

        def constant(name):
            sys.exit("non-finite number " + name)

        def in_order(pairs):
            keys = [key for key, _ in pairs]
            if keys != sorted(keys):
                sys.exit("keys out of order: " + ", ".join(keys))
            return dict(pairs)

        text = open(sys.argv[2], encoding="utf-8").read()
        texts = text.split("\\n") if sys.argv[1] == "lines" else [text]
        if texts[-1] == "" and len(texts) > 1:
            texts.pop()
        values = [json.loads(one, parse_constant=constant, object_pairs_hook=in_order) for one in texts]
        print(json.dumps(values, allow_nan=False))
        """
}
