import CaptureModel
import Foundation

/// The chapter marks of a file still being written, kept beside it (`.talk.mkv.markers`, one JSON line
/// each, synced as each is set) until the file is ended and they are in it as chapters. A recording cut
/// off by a crash or a kill keeps them there for the repair, which writes them in.
public enum MarkerJournal {
    /// Where the marks of the recording at `recording` are kept.
    public static func path(for recording: String) -> String {
        let url = URL(fileURLWithPath: recording)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).markers").path
    }

    /// Adds `marker` to the recording's journal and syncs it to the disk.
    public static func append(_ marker: Marker, for recording: String) throws {
        let descriptor = open(path(for: recording), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw CaptureError.invalidConfiguration("cannot keep the marker beside \(recording): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let line = Array(try JSONEncoder().encode(marker)) + [UInt8(ascii: "\n")]
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw CaptureError.invalidConfiguration("cannot keep the marker beside \(recording): \(String(cString: strerror(errno)))") }
        _ = fdatasync(descriptor)
    }

    /// The marks kept for the recording, in order of time; a line that cannot be read (cut off by a
    /// crash) is passed over.
    public static func read(for recording: String) -> [Marker] {
        guard let data = FileManager.default.contents(atPath: path(for: recording)), data.count <= 1 << 20 else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Marker.self, from: Data($0)) }
            .sorted { $0.time < $1.time }
    }

    /// Forgets the marks once they are in the file.
    public static func remove(for recording: String) {
        try? FileManager.default.removeItem(atPath: path(for: recording))
    }
}
