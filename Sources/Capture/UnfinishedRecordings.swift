import CaptureModel
import Foundation
import LinuxIO

/// Recordings of pipcam's own cut off beside a new one (a crash, a kill, a power cut), made whole before
/// the new one starts: a program using the session gets its earlier recordings back as `record` does.
enum UnfinishedRecordings {
    /// Repairs each unfinished recording in `path`'s folder, but `path` itself and any another pipcam is
    /// still recording; an event each says what was repaired, or why it could not be.
    static func repair(besides path: String, report: (SessionEvent) -> Void) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names.sorted() where name.lowercased().hasSuffix(".mkv") {
            let candidate = folder.appendingPathComponent(name).path
            guard candidate != path, MatroskaHeader.read(path: candidate)?.isUnfinishedRecording == true, !FileInProgress.isHeld(candidate) else { continue }
            do {
                report(.repaired(path: candidate, duration: try MatroskaRepair.repair(path: candidate).duration))
            } catch MatroskaRepair.Failure.noPictures {
                // Cut off before its first picture: nothing to save, and nothing worth a word at every start.
                continue
            } catch {
                report(.warning("an unfinished recording could not be repaired: \(candidate) \(error)"))
            }
        }
    }
}
