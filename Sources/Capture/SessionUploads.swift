import CaptureGraph
import CaptureModel
import Foundation
import Locking

/// A session's uploads (`Uploads`), made when its first recording with an upload command starts and
/// kept across its graphs, so a structural change or a recording on command goes on in the same queue.
public final class SessionUploads: @unchecked Sendable {
    private let uploads = Locked<Uploads?>(nil)
    /// Recordings cut off by a crash and repaired as the session started: uploaded with its files.
    private let repaired = Locked<[String]>([])

    /// Mends a recording a crash or a power cut left beside `path`, before a new one starts there: `report`
    /// says so, and the mended file is uploaded with the new one's files (cut off, it never reached them).
    func repairUnfinished(besides path: String, report: (SessionEvent) -> Void) {
        UnfinishedRecordings.repair(besides: path) { event in
            if case .repaired(let path, _) = event { repaired.withValue { $0.append(path) } }
            report(event)
        }
    }

    /// Hands each file `running` finishes to the uploads, and lets `keep` delete only parts already sent.
    func watch(_ running: RunningGraph, configuration: SessionConfiguration, report: @escaping @Sendable (SessionEvent) -> Void) {
        guard let movie = configuration.recordedFile, let command = movie.upload else { return }
        let queue = self.queue(command, folder: URL(fileURLWithPath: movie.path).deletingLastPathComponent().path, report: report)
        queue.keepsParts(running.writer.partsTidier)
        for path in repaired.withValue({ paths in defer { paths = [] }; return paths }) { queue.add(path) }
        running.writer.watchFiles(finished: { queue.add($0) }, mayDelete: { queue.isSent($0) })
    }

    /// Sends what the folder's journal says is pending, before any recording: a service started again
    /// (`pipcam serve`) goes on with what it had not sent.
    public func sendPending(with command: UploadCommand, folder: String, of session: CaptureSession) {
        _ = queue(command, folder: folder) { [weak session] in session?.eventContinuation.yield($0) }
    }

    /// The uploads for `command`, made (and its folder's pending files sent) unless they are.
    private func queue(_ command: UploadCommand, folder: String, report: @escaping @Sendable (SessionEvent) -> Void) -> Uploads {
        uploads.withValue { made -> Uploads in
            if let made, made.command == command { return made }
            made?.stop()
            let new = Uploads(command: command, folder: folder) { report(.upload($0)) }
            made = new
            return new
        }
    }

    /// Where the uploads stand; nil when nothing uploads.
    public var status: UploadStatus? { uploads.value?.status }

    /// Waits until every file is sent, or until `isGivingUp` says to stop waiting: what is left stays
    /// pending for the next start.
    public func waitUntilSent(isGivingUp: @escaping @Sendable () -> Bool) async {
        await uploads.value?.waitUntilSent(isGivingUp: isGivingUp)
    }

    /// Stops after the tries under way.
    public func stop() { uploads.value?.stop() }
}
