/// What each finished file of a recording is handed to (`output.upload.command`, `--upload-command`):
/// a command people already use for their storage, rclone or the AWS command line, with the file's
/// placeholders filled. It is split into words as a shell would (quotes, backslashes) but never run by a
/// shell: a file's name is one argument whatever it holds.
public struct UploadCommand: Sendable, Hashable {
    /// What a word may hold in braces, filled for each file.
    public static let placeholders = ["file", "name", "folder", "host"]

    /// The words, placeholders unfilled.
    public let words: [String]

    public init(_ text: String) throws {
        let words = try Self.split(text)
        guard let program = words.first, !program.isEmpty else { throw CaptureError.invalidConfiguration("the upload command is empty") }
        for word in words {
            var rest = Substring(word)
            while let open = rest.firstIndex(of: "{") {
                guard let close = rest[open...].firstIndex(of: "}") else { break }
                let name = String(rest[rest.index(after: open)..<close])
                guard Self.placeholders.contains(name) else {
                    throw CaptureError.invalidConfiguration("the upload command has {\(SecretText.hint(name))}: its placeholders are \(Self.placeholders.map { "{\($0)}" }.joined(separator: ", "))")
                }
                rest = rest[rest.index(after: close)...]
            }
        }
        guard words.contains(where: { $0.contains("{file}") }) else {
            throw CaptureError.invalidConfiguration("the upload command names no file: put {file} where the file goes")
        }
        self.words = words
    }

    /// The command for one file: the program, then its arguments.
    public func arguments(file: String, host: String) -> [String] {
        let slash = file.lastIndex(of: "/")
        let name = slash.map { String(file[file.index(after: $0)...]) } ?? file
        let folder = slash.map { String(file[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let values = ["file": file, "name": name, "folder": folder, "host": host]
        // One pass over each word: what a value holds (a name with "{host}" in it) is never filled again.
        return words.map { word in
            var filled = "", rest = Substring(word)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}"),
                  let value = values[String(rest[rest.index(after: open)..<close])] {
                filled += rest[..<open] + value
                rest = rest[rest.index(after: close)...]
            }
            return filled + rest
        }
    }

    /// What the command may carry that is nobody else's to see: the value of an option named for a key,
    /// secret, token or password (`--s3-secret-access-key=…`, `--password …`), of such a setting in an
    /// rclone remote made on the command line (`:s3,secret_access_key=…:bucket`), and a password in an
    /// address (`https://user:pass@host`). Hidden in the command's output wherever it is shown.
    public var secrets: [String] {
        let secretNames = ["key", "secret", "token", "pass"]
        var found: [String] = []
        for (index, word) in words.enumerated() {
            let lowered = word.lowercased()
            let isSecretOption = lowered.hasPrefix("-") && secretNames.contains { lowered.split(separator: "=", maxSplits: 1).first?.contains($0) == true }
            if isSecretOption {
                if let equals = word.firstIndex(of: "=") {
                    found.append(String(word[word.index(after: equals)...]))
                } else if index + 1 < words.count {
                    found.append(words[index + 1])
                }
            } else {
                // name=value settings parted by commas or colons.
                for setting in word.split(whereSeparator: { $0 == "," || $0 == ":" }) {
                    let pair = setting.split(separator: "=", maxSplits: 1)
                    if pair.count == 2, secretNames.contains(where: { pair[0].lowercased().contains($0) }) { found.append(String(pair[1])) }
                }
            }
            if let scheme = word.range(of: "://"), let at = word[scheme.upperBound...].firstIndex(of: "@"),
               let colon = word[scheme.upperBound..<at].firstIndex(of: ":") {
                found.append(String(word[word.index(after: colon)..<at]))
            }
        }
        return found.filter { !$0.isEmpty }
    }

    /// `text` (the command's output) with the command's secrets hidden.
    public func hiding(_ text: String) -> String { SecretText.hiding(secrets, in: text) }

    /// Words as a shell splits them: spaces part them; single quotes keep everything; double quotes keep
    /// all but a backslash before `"`, `\`, `$` or a backquote; a backslash elsewhere keeps the next character.
    static func split(_ text: String) throws -> [String] {
        var words: [String] = []
        var word = "", inWord = false
        var characters = text.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "'" { closed = true; break }
                    word.append(next)
                }
                guard closed else { throw CaptureError.invalidConfiguration("the upload command has a ' that is not closed") }
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\", let escaped = characters.next() {
                        if !["\"", "\\", "$", "`"].contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { throw CaptureError.invalidConfiguration("the upload command has a \" that is not closed") }
            case "\\":
                inWord = true
                if let next = characters.next() { word.append(next) }
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

/// Where a recording's uploads stand: files waiting (among them those whose last try failed, tried again
/// later), and files sent.
public struct UploadStatus: Sendable, Equatable {
    public var pending = 0
    public var failing = 0
    public var done = 0

    public init(pending: Int = 0, failing: Int = 0, done: Int = 0) {
        self.pending = pending
        self.failing = failing
        self.done = done
    }

    /// "uploads 2 pending (1 failing), 5 done".
    public var text: String {
        "uploads \(pending) pending" + (failing > 0 ? " (\(failing) failing)" : "") + ", \(done) done"
    }
}

/// One file's upload: sent, a try that failed (it is tried again), or a file that went before it was sent.
public struct UploadReport: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case done(seconds: Double)
        case failed(attempt: Int, reason: String, retryIn: Duration)
        case gone
    }

    public let file: String
    public let kind: Kind

    public init(file: String, kind: Kind) {
        self.file = file
        self.kind = kind
    }
}
