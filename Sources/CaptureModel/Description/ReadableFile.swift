import Foundation

/// Whether a path is a file pipcam may open and read to its end: opening a FIFO waits for a writer
/// forever, a character device such as /dev/zero never ends, and a directory reads as nothing.
public enum ReadableFile {
    /// Why the path is not a regular file that can be read, in a few words, or nil when it is.
    public static func problem(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))"
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a folder, not a file"
        case S_IFIFO: return "is a FIFO, not a file"
        case S_IFCHR, S_IFBLK: return "is a device, not a file"
        case S_IFSOCK: return "is a socket, not a file"
        default: return "is not a regular file"
        }
        return access(path, R_OK) == 0 ? nil : "cannot be read (permission denied)"
    }

    /// The size of a regular file, in bytes.
    public static func size(at path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }
}
