import ArgumentParser
import Capture
import Foundation

/// `pipcam repair`: a recording cut off by a crash, a kill or a power cut, made playable and seekable
/// (its duration and index written) without re-encoding; a session does the same by itself for the
/// unfinished recordings it finds beside its new file.
struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Finish a recording cut off by a crash, a kill or a power cut: playable and seekable, nothing re-encoded.")

    @Argument(help: "The unfinished recording (.mkv).")
    var file: String

    @Argument(help: "Write the repaired recording here and leave FILE as it is (default: repair FILE in place).")
    var output: String?

    @Flag(name: .long, help: "Overwrite OUTPUT if it exists.")
    var force = false

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CLIError("\(file): no such file")
        }
        guard let header = MatroskaHeader.read(path: file) else { throw CLIError("\(file) is not a Matroska file") }
        guard !header.isFinished else {
            print("\(file) is complete: nothing to repair")
            return
        }
        guard !FileInProgress.isHeld(file) else { throw CLIError("\(file) is being recorded; repair it once the recording has ended") }
        var target = file
        if let output {
            target = try OutputPath.check(output, force: force)
            try? FileManager.default.removeItem(atPath: target)
            do {
                try FileManager.default.copyItem(atPath: file, toPath: target)
                // The markers set while it was recorded go into the copy; the file keeps its own.
                let markers = MarkerJournal.path(for: file)
                if FileManager.default.fileExists(atPath: markers) {
                    try? FileManager.default.removeItem(atPath: MarkerJournal.path(for: target))
                    try FileManager.default.copyItem(atPath: markers, toPath: MarkerJournal.path(for: target))
                }
            } catch {
                throw CLIError("cannot write \(output): \(error.localizedDescription)")
            }
        }
        let result = try Self.repair(target)
        print("repaired \(target): \(RecordingSummary.seconds(result.duration)), playable and seekable" + Self.dropped(result))
    }

    /// Repairs `path` in place; its failure as one line naming the file.
    static func repair(_ path: String) throws -> MatroskaRepair.Result {
        do {
            return try MatroskaRepair.repair(path: path)
        } catch let failure as MatroskaRepair.Failure {
            throw CLIError("\(path) \(failure)")
        }
    }

    static func dropped(_ result: MatroskaRepair.Result) -> String {
        result.droppedBytes > 0 ? " (an incomplete end of \(RecordingSummary.bytes(result.droppedBytes)) dropped)" : ""
    }
}
