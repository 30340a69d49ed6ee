/// Text that may hold what a person keeps secret (a stream key, a camera's password), and pieces of what
/// they typed quoted back in errors: one rule for streams and network cameras alike.
enum SecretText {
    /// Query items whose values are secret wherever an address is quoted.
    static let secretQueryNames: Set<String> = ["passphrase", "streamid", "password", "pass", "key", "token", "secret"]

    /// `text` with every secret as "****", the longest first (a secret may hold a shorter one).
    static func hiding(_ secrets: [String], in text: String) -> String {
        secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "****") }
    }

    /// A piece of an address quoted in an error: what `maskingAddresses` leaves, at most 40 characters,
    /// so a secret pasted in the wrong place is not shown whole.
    static func hint(_ text: String) -> String {
        let masked = maskingAddresses(in: text)
        return masked.count > 40 ? String(masked.prefix(37)) + "…" : masked
    }

    /// `text` with what an address may carry secretly hidden before any of it is quoted: the user info
    /// of `scheme://user:password@host` (as `user:****@`, or `****@` without a password) and the values
    /// of secret query items (`?passphrase=****`). A quoted piece that is not a whole address, like
    /// `alice:PW@host`, loses everything before its last '@'.
    static func maskingAddresses(in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let schemeEnd = rest.range(of: "://") {
            result += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { "/?#".contains($0) || $0.isWhitespace } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                result += userInfo.firstIndex(of: ":").map { userInfo[..<$0] + ":****" } ?? "****"
                result += authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        result += rest
        if !text.contains("://"), let at = result.lastIndex(of: "@") { result = "****" + result[at...] }
        return maskingSecretQueryValues(in: result)
    }

    /// `name=value` pairs of a secret name (after `?`, `&` or `;`) with the value as "****".
    private static func maskingSecretQueryValues(in text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            result.append(character)
            index = text.index(after: index)
            guard "?&;".contains(character) else { continue }
            let nameEnd = text[index...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } ?? text.endIndex
            guard nameEnd < text.endIndex, text[nameEnd] == "=", secretQueryNames.contains(text[index..<nameEnd].lowercased()) else { continue }
            result += text[index...nameEnd] + "****"
            index = text[nameEnd...].firstIndex { "&;#".contains($0) || $0.isWhitespace } ?? text.endIndex
        }
        return result
    }
}
