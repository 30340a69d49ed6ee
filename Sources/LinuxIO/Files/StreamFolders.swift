import CaptureModel
import Foundation
import Glibc

/// An HLS stream's folder, made before anything starts when it is missing: a folder that cannot be made
/// or written to is one line at once, not a stream that fails at every retry while the recording runs.
public enum StreamFolders {
    public static func prepare(_ streams: [StreamOutput]) throws {
        for stream in streams {
            guard case .hls(let folder) = stream.destination else { continue }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CaptureError.streamOutput(name: stream.name, .folderUnusable(folder, reason: reason(making: folder)))
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw CaptureError.streamOutput(name: stream.name, .folderUnusable(folder, reason: String(cString: strerror(errno)).lowercased()))
            }
        }
    }

    /// Why `folder` could not be made: the first part of its path that is in the way, and what it is.
    private static func reason(making folder: String) -> String {
        var path = URL(fileURLWithPath: folder).standardizedFileURL
        while path.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) {
                if !isFolder.boolValue { return "\(path.path) is a file" }
                return access(path.path, W_OK | X_OK) == 0 ? "it cannot be made" : "\(path.path) is not writable"
            }
            path.deleteLastPathComponent()
        }
        return "it cannot be made"
    }
}
