import Foundation

/// The secret a browser or script outside this machine shows to reach the page: made at the first start
/// on a non-loopback address, kept in the user's config folder readable by the user alone, and said
/// once, when it is made. Never written anywhere else (logs, events, status).
public struct WebToken: Sendable {
    let value: String

    /// The token itself, to show the user the one time it is made.
    public var text: String { value }

    /// The token file's place: `$XDG_CONFIG_HOME/pipcam/web-token`, else `~/.config/pipcam/web-token`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return config + "/pipcam/web-token"
    }

    /// Reads the token at `path`, or makes one there. `made` is true when it was made now, so the caller
    /// shows it this once. A token file others can read is refused, not used.
    public static func loadOrMake(at path: String) throws -> (token: WebToken, made: Bool) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { throw WebRemoteError("the web token \(path) is not a regular file") }
            guard info.st_mode & 0o077 == 0 else {
                throw WebRemoteError("the web token \(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 it, or delete it for a new one")
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw WebRemoteError("cannot read the web token \(path)") }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard value.count >= 16 else { throw WebRemoteError("the web token in \(path) is shorter than 16 characters: delete it for a new one") }
            return (WebToken(value: value), false)
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw WebRemoteError("cannot make the folder \(folder) for the web token: \(error.localizedDescription)")
        }
        let token = WebToken(value: Self.random())
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw WebRemoteError("cannot write the web token \(path): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        let bytes = Array((token.value + "\n").utf8)
        guard write(file, bytes, bytes.count) == bytes.count, fsync(file) == 0 else {
            unlink(path)
            throw WebRemoteError("cannot write the web token \(path): \(String(cString: strerror(errno)))")
        }
        return (token, true)
    }

    /// 32 random bytes as 43 characters of base64url.
    private static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Compares without stopping at the first difference, so the time taken says nothing of the token.
    func matches(_ offered: Substring) -> Bool {
        let expected = Array(value.utf8), given = Array(offered.utf8)
        var difference = expected.count ^ given.count
        for index in expected.indices { difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0)) }
        return difference == 0
    }
}
