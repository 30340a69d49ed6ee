import CaptureModel
import Foundation
import LinuxIO
import Locking

/// Sends each finished file of a session's recordings off the machine with the upload command, one at a
/// time in the order they were finished. A file whose try failed waits a little longer each time (up to
/// `longestWait`) while the others go on, and is tried again until it is sent. The folder's
/// `UploadJournal` keeps what is pending across a restart; a file that went before it was sent (deleted
/// by hand) is given up with a report.
final class Uploads: @unchecked Sendable {
    /// How long one try may take: a part of an hour at a few Mbit/s goes in minutes on a slow line.
    static let attemptTimeout: Duration = .seconds(3600)
    /// The wait after a first failure, doubled after each, up to `longestWait`.
    static let firstWait: Duration = .seconds(1)
    static let longestWait: Duration = .seconds(30)
    /// The recordings in parts whose `keep` waits for their parts to be sent, the newest kept.
    static let tidiersKept = 64

    private struct Pending {
        let file: String
        var attempts = 0
        var wait = Uploads.firstWait
        var notBefore = ContinuousClock.now
    }

    private struct State {
        var queue: [Pending] = []
        var sent: Set<String> = []
        var done = 0
        var working = false
        var stopped = false
        var tidiers: [@Sendable () -> Void] = []
    }

    let command: UploadCommand
    private let folder: String
    private let journal: UploadJournal
    private let host: String
    private let report: @Sendable (UploadReport) -> Void
    private let state = Locked(State())

    /// Starts with the files the folder's journal says are pending: recordings of its own folder only.
    init(command: UploadCommand, folder: String, report: @escaping @Sendable (UploadReport) -> Void) {
        self.command = command
        self.folder = folder
        journal = UploadJournal(folder: folder)
        host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
        self.report = report
        let pending = journal.pending().filter(isRecording)
        state.withValue { $0.queue = pending.map { Pending(file: $0) } }
        work()
    }

    /// `file` is finished: it is sent after those before it.
    func add(_ file: String) {
        guard isRecording(file) else { return }
        journal.add(file)
        state.withValue { state in
            if !state.queue.contains(where: { $0.file == file }) { state.queue.append(Pending(file: file)) }
        }
        work()
    }

    /// A recording in parts whose `keep` deletes a part only once it is sent: `tidy` is called after each.
    func keepsParts(_ tidy: @escaping @Sendable () -> Void) {
        state.withValue { state in
            state.tidiers.append(tidy)
            state.tidiers = Array(state.tidiers.suffix(Self.tidiersKept))
        }
    }

    /// Whether `file` has been sent (a part `keep` may delete).
    func isSent(_ file: String) -> Bool { state.value.sent.contains(file) }

    var status: UploadStatus {
        let state = state.value
        return UploadStatus(pending: state.queue.count, failing: state.queue.filter { $0.attempts > 0 }.count, done: state.done)
    }

    /// Stops after the try under way; what is pending stays in the journal for the next start.
    func stop() { state.withValue { $0.stopped = true } }

    /// Waits until nothing is pending, or `isGivingUp` says to stop waiting; checks twice a second.
    func waitUntilSent(isGivingUp: @Sendable () -> Bool) async {
        while status.pending > 0, !isGivingUp() {
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// A file of pipcam's in the folder the uploads are for, there as a file of its own (not a link):
    /// what a journal someone else wrote may not send elsewhere.
    private func isRecording(_ file: String) -> Bool {
        let url = URL(fileURLWithPath: file)
        var info = stat()
        return url.deletingLastPathComponent().standardizedFileURL.path == URL(fileURLWithPath: folder).standardizedFileURL.path
            && url.pathExtension.lowercased() == "mkv" && (lstat(file, &info) != 0 || info.st_mode & S_IFMT == S_IFREG)
    }

    /// Starts the worker unless it runs.
    private func work() {
        let start = state.withValue { state -> Bool in
            guard !state.working, !state.stopped, !state.queue.isEmpty else { return false }
            state.working = true
            return true
        }
        guard start else { return }
        Task.detached { [self] in
            while let next = nextDue() {
                if let file = next.file { await send(file) } else { try? await Task.sleep(for: next.wait) }
            }
        }
    }

    /// The first file whose wait is over; else how long until one is (at most a fifth of a second, so a
    /// stop or a new file is seen); nil when nothing is left, and the worker ends.
    private func nextDue() -> (file: String?, wait: Duration)? {
        state.withValue { state in
            guard !state.stopped, !state.queue.isEmpty else {
                state.working = false
                return nil
            }
            let now = ContinuousClock.now
            if let due = state.queue.first(where: { $0.notBefore <= now }) { return (due.file, .zero) }
            let soonest = state.queue.map(\.notBefore).min() ?? now
            return (nil, min(soonest - now, .milliseconds(200)))
        }
    }

    /// One try at `file`.
    private func send(_ file: String) async {
        guard FileManager.default.fileExists(atPath: file) else {
            finished(file, sent: false)
            report(UploadReport(file: file, kind: .gone))
            return
        }
        let began = ContinuousClock.now
        let result = await ExternalCommand.run(command.arguments(file: file, host: host), timeout: Self.attemptTimeout)
        if result.status == 0 {
            finished(file, sent: true)
            report(UploadReport(file: file, kind: .done(seconds: (ContinuousClock.now - began).seconds)))
            return
        }
        let said = result.output.split(separator: "\n").last.map(String.init) ?? ""
        let reason = command.hiding(result.problem ?? "exit \(result.status ?? -1)" + (said.isEmpty ? "" : ": " + said))
        let failed = state.withValue { state -> Pending? in
            guard let index = state.queue.firstIndex(where: { $0.file == file }) else { return nil }
            var pending = state.queue.remove(at: index)
            pending.attempts += 1
            pending.notBefore = .now + pending.wait
            state.queue.append(pending)
            defer { state.queue[state.queue.count - 1].wait = min(pending.wait * 2, Self.longestWait) }
            return pending
        }
        if let failed { report(UploadReport(file: file, kind: .failed(attempt: failed.attempts, reason: reason, retryIn: failed.wait))) }
    }

    /// Done with `file`: `keep` may delete it once sent, before it stops counting as pending.
    private func finished(_ file: String, sent: Bool) {
        journal.finish(file)
        if sent {
            let tidiers = state.withValue { state in
                state.sent.insert(file)
                return state.tidiers
            }
            for tidy in tidiers { tidy() }
        }
        state.withValue { state in
            state.queue.removeAll { $0.file == file }
            if sent { state.done += 1 }
        }
    }
}
