import CaptureModel
import Foundation
import LinuxIO
import Locking

/// The files of a recording in parts (`Segmenting`), as splitmuxsink begins and ends them: each named as
/// it begins (the first with the recording's path, then the next free "talk-N.mkv"), synced and locked
/// while written (`FileInProgress`), finished as a single file is (`MatroskaFinish`) once it ends, and
/// the oldest deleted as `keep` says. File work happens on a queue of its own, never on the bus's thread.
final class RecordingParts: @unchecked Sendable {
    private struct State {
        var paths: [String] = []
        var nextNumber = 2
        var writing: FileInProgress?
        var current: String?
        var ended: [Segmenting.Part] = []
        var finished: Set<String> = []
        var deleted: [String] = []
        var deletedBytes: Int64 = 0
    }

    private let firstPath: String
    private let segmenting: Segmenting
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "pipcam.parts")
    /// Told of each part once it is finished (its upload).
    private let finished: Locked<(@Sendable (String) -> Void)?>
    /// Whether `keep` may delete a part: not before it is uploaded, when it is to be.
    let mayDelete = Locked<@Sendable (String) -> Bool>({ _ in true })

    init(firstPath: String, segmenting: Segmenting, finished: Locked<(@Sendable (String) -> Void)?>) {
        self.firstPath = firstPath
        self.segmenting = segmenting
        self.finished = finished
    }

    /// The path of part `index` (from 0), asked by splitmuxsink as the part begins: never an existing file.
    func path(forPart index: Int) -> String {
        state.withValue { state in
            var path = firstPath
            if index > 0 {
                repeat {
                    path = MovieFileOutput.numberedPath(firstPath, state.nextNumber)
                    state.nextNumber += 1
                } while FileManager.default.fileExists(atPath: path) || state.paths.contains(path)
            }
            state.paths.append(path)
            return path
        }
    }

    /// splitmuxsink began writing `path`.
    func began(_ path: String) {
        queue.async { [state] in
            state.withValue { state in
                state.writing?.end()
                // Markers an earlier file of the same name left are not this part's.
                MarkerJournal.remove(for: path)
                state.writing = FileInProgress(path: path)
                state.current = path
            }
        }
    }

    /// splitmuxsink ended `path`: it is finished, and the oldest parts go as `keep` says.
    func ended(_ path: String) {
        queue.async { [self] in
            state.withValue { state in
                if state.current == path {
                    state.writing?.end()
                    state.writing = nil
                    state.current = nil
                }
            }
            finish(path)
            let ended = Segmenting.Part(path: path, bytes: Self.size(path) ?? 0, ended: Date())
            state.withValue { $0.ended.append(ended) }
            deleteForKeep()
        }
    }

    /// Deletes the oldest parts as `keep` says, of those it may delete; again once a part is uploaded.
    /// Done by the time it returns, so a program that ends once its parts are sent leaves them as `keep` says.
    func tidy() {
        queue.sync { deleteForKeep() }
    }

    private func deleteForKeep() {
        let (parts, current) = state.withValue { state in (state.ended, state.current.map { Self.size($0) ?? 0 }) }
        let mayDelete = mayDelete.value
        let going = segmenting.partsToDelete(parts, current: current, now: Date()).filter { mayDelete($0.path) }
        for part in going { try? FileManager.default.removeItem(atPath: part.path) }
        state.withValue { state in
            state.ended.removeAll { part in going.contains(part) }
            state.deleted += going.map(\.path)
            state.deletedBytes += going.reduce(0) { $0 + $1.bytes }
        }
    }

    /// Once the recording has stopped: every part not finished yet (the last, or one the disk cut off)
    /// is finished or repaired, after what is queued.
    func finishAll() {
        queue.sync {
            state.withValue { state in
                state.writing?.end()
                state.writing = nil
            }
            let (paths, deleted) = state.withValue { ($0.paths, Set($0.deleted)) }
            for path in paths where !deleted.contains(path) { finish(path) }
        }
    }

    /// Stops syncing the part being written (the graph is torn down).
    func stop() {
        state.withValue { state in
            state.writing?.end()
            state.writing = nil
        }
    }

    /// The parts on the disk, in order.
    var kept: [String] {
        state.withValue { state in state.paths.filter { !state.deleted.contains($0) } }
    }

    /// Parts deleted for `keep`.
    var deletedCount: Int { state.withValue { $0.deleted.count } }

    /// Bytes written so far, the deleted parts included: the recording's pace on the disk.
    var bytesWritten: Int64 {
        let (kept, deleted) = state.withValue { state in (state.paths.filter { !state.deleted.contains($0) }, state.deletedBytes) }
        return kept.reduce(deleted) { $0 + (Self.size($1) ?? 0) }
    }

    /// Bytes the kept parts take on the disk.
    var keptBytes: Int64 { kept.reduce(0) { $0 + (Self.size($1) ?? 0) } }

    /// Ends the part as the single file is ended (`MatroskaFinish.end`), once.
    private func finish(_ path: String) {
        guard state.withValue({ $0.finished.insert(path).inserted }) else { return }
        _ = MatroskaFinish.end(path: path)
        if FileManager.default.fileExists(atPath: path) { finished.value?(path) }
    }

    private static func size(_ path: String) -> Int64? { ReadableFile.size(at: path) }
}
