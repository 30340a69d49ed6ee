/// Text that may hold what a person keeps secret (a stream key, a camera's password), and pieces of what
/// they typed quoted back in errors: one rule for streams and network cameras alike.
enum SecretText {
    /// Query items whose values are secret wherever an address is quoted: those whose names hold one of
    /// these (`passphrase`, `pwd`, `access_token`, `apikey`, `streamid`, …).
    static let secretQueryWords = ["pass", "pwd", "key", "token", "secret", "auth", "sig", "streamid"]

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
    /// of `scheme://user:password@host` (as `user:****@`, or `****@` without a password; up to the last
    /// '@' before a space, since a password may hold '/', '?' or '#') and the values of secret query items
    /// (`?passphrase=****`). A quoted piece that is not a whole address, like `alice:PW@host`, loses
    /// everything before its last '@'. Hiding too much is fine: this is for errors.
    static func maskingAddresses(in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let schemeEnd = rest.range(of: "://") {
            result += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let wordEnd = rest.firstIndex { $0.isWhitespace } ?? rest.endIndex
            guard let at = rest[..<wordEnd].lastIndex(of: "@") else { continue }
            let userInfo = rest[..<at]
            result += userInfo.firstIndex { ":/?#".contains($0) }.map { userInfo[..<$0] + ":****" } ?? "****"
            rest = rest[at...]
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
            let name = text[index..<nameEnd].lowercased()
            guard nameEnd < text.endIndex, text[nameEnd] == "=", secretQueryWords.contains(where: { name.contains($0) }) else { continue }
            result += text[index...nameEnd] + "****"
            index = text[nameEnd...].firstIndex { "&;".contains($0) || $0.isWhitespace } ?? text.endIndex
        }
        return result
    }
}
