import Foundation

/// The uploads of one folder's recordings, kept beside them (`.pipcam-uploads`, a JSON line per change,
/// synced as it is written): a file is pending from when it is finished until it is sent, so uploads
/// cut off by a crash, a kill or a power cut go on when pipcam starts again.
public final class UploadJournal: @unchecked Sendable {
    /// The journal's file, in the recordings' folder.
    public let path: String
    private let lock = NSLock()
    /// Changes written since the journal was last written anew.
    private var appended = 0
    /// After this many changes it is written anew with what is pending, so it never grows for long.
    static let compactEvery = 256

    private struct Line: Codable {
        var pending: String?
        var done: String?
    }

    public init(folder: String) {
        path = URL(fileURLWithPath: folder).appendingPathComponent(".pipcam-uploads").path
    }

    /// The files not sent yet, in the order they were finished. The journal is written anew with them
    /// alone, so it never grows past what is still to send.
    public func pending() -> [String] {
        lock.withLock { compacted() }
    }

    private func compacted() -> [String] {
        appended = 0
        var info = stat()
        // A journal is the folder's own file: a link planted in its place is not followed.
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 64 << 20,
              let data = FileManager.default.contents(atPath: path) else { return [] }
        var order: [String] = []
        var waiting = Set<String>()
        let decoder = JSONDecoder()
        // A line cut off by a crash is passed over.
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let entry = try? decoder.decode(Line.self, from: Data(line)) else { continue }
            if let file = entry.pending, waiting.insert(file).inserted { order.append(file) }
            if let file = entry.done { waiting.remove(file) }
        }
        var listed = Set<String>()
        let kept = order.filter { waiting.contains($0) && listed.insert($0).inserted }
        let text = kept.compactMap { Self.encoded(Line(pending: $0)) }.joined()
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return kept
    }

    /// `file` is finished and waits to be sent.
    public func add(_ file: String) { append(Line(pending: file)) }

    /// `file` was sent (or went before it could be): nothing is left to do for it.
    public func finish(_ file: String) { append(Line(done: file)) }

    private func append(_ line: Line) {
        guard let text = Self.encoded(line) else { return }
        lock.withLock {
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard descriptor >= 0 else { return }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            _ = fdatasync(descriptor)
            close(descriptor)
            appended += 1
            if appended >= Self.compactEvery { _ = compacted() }
        }
    }

    private static func encoded(_ line: Line) -> String? {
        (try? JSONEncoder().encode(line)).map { String(decoding: $0, as: UTF8.self) + "\n" }
    }
}
