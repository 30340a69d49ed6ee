import Foundation

/// What a clip replayed as a camera holds, from its first bytes, where the graph depends on it.
enum ClipFormat {
    /// Whether the file is raw YUV4MPEG2 video (its first line starts "YUV4MPEG2 ").
    static func isRawY4M(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 10)) ?? Data()
        return magic == Data("YUV4MPEG2 ".utf8)
    }
}
