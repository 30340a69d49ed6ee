/// Text that may hold what a person keeps secret (a stream key, a camera's password), and pieces of what
/// they typed quoted back in errors: one rule for streams and network cameras alike.
enum SecretText {
    /// `text` with every secret as "****", the longest first (a secret may hold a shorter one).
    static func hiding(_ secrets: [String], in text: String) -> String {
        secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "****") }
    }

    /// A piece of an address quoted in an error: at most 40 characters, so a secret pasted in the wrong
    /// place is not shown whole.
    static func hint(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(37)) + "…" : text
    }
}
