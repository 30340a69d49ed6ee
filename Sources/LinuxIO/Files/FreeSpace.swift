import Foundation

/// Room left on the disk that holds a file.
public enum FreeSpace {
    /// Bytes an ordinary user may still write on the disk that holds `path` (or would hold it).
    public static func bytes(at path: String) -> Int64? {
        var info = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
