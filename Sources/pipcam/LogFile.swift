import Foundation

/// A new file for a log written while recording (`--analyze`, `--events`), checked like the recording:
/// never overwritten without `--force`, and an unwritable place is said before anything starts.
enum LogFile {
    static func create(_ path: String, force: Bool, what: String) throws -> FileHandle {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) && !force { throw CLIError("\(path) exists; pass --force to overwrite it") }
        guard manager.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CLIError("cannot write the \(what) to \(path)")
        }
        return handle
    }
}
