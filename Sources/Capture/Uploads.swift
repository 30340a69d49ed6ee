import CaptureModel
import Foundation
import LinuxIO
import Locking

/// Sends each finished file of a session's recordings off the machine with the upload command, one at a
/// time in the order they were finished, each tried again after a failure, a little later each time (up
/// to `longestWait`), until it is sent. The folder's `UploadJournal` keeps what is pending across a
/// restart; a file that went before it was sent (deleted by hand) is given up with a report.
final class Uploads: @unchecked Sendable {
    /// How long one try may take: a part of an hour at a few Mbit/s goes in minutes on a slow line.
    static let attemptTimeout: Duration = .seconds(3600)
    /// The wait after a first failure, doubled after each, up to `longestWait`.
    static let firstWait: Duration = .seconds(1)
    static let longestWait: Duration = .seconds(30)

    private struct State {
        var queue: [String] = []
        var sent: Set<String> = []
        var failing: Set<String> = []
        var done = 0
        var working = false
        var stopped = false
    }

    let command: UploadCommand
    private let journal: UploadJournal
    private let host: String
    private let report: @Sendable (UploadReport) -> Void
    private let state = Locked(State())
    /// Called once a file is sent: a recording in parts may now delete it for `keep`.
    let onSent = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Starts with the files the folder's journal says are pending.
    init(command: UploadCommand, folder: String, report: @escaping @Sendable (UploadReport) -> Void) {
        self.command = command
        journal = UploadJournal(folder: folder)
        host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
        self.report = report
        let pending = journal.pending()
        state.withValue { $0.queue = pending }
        work()
    }

    /// `file` is finished: it is sent after those before it.
    func add(_ file: String) {
        journal.add(file)
        state.withValue { state in
            if !state.queue.contains(file) { state.queue.append(file) }
        }
        work()
    }

    /// Whether `file` has been sent (a part `keep` may delete).
    func isSent(_ file: String) -> Bool { state.value.sent.contains(file) }

    var status: UploadStatus {
        let state = state.value
        return UploadStatus(pending: state.queue.count, failing: state.failing.count, done: state.done)
    }

    /// Stops after the try under way; what is pending stays in the journal for the next start.
    func stop() { state.withValue { $0.stopped = true } }

    /// Waits until nothing is pending, or `isGivingUp` says to stop waiting; checks twice a second.
    func waitUntilSent(isGivingUp: @Sendable () -> Bool) async {
        while status.pending > 0, !isGivingUp() {
            try? await Task.sleep(for: .milliseconds(500))
        }
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
            while let file = state.withValue({ $0.stopped ? nil : $0.queue.first }) {
                await send(file)
            }
            state.withValue { $0.working = false }
            // A file added as the worker finished.
            if state.value.queue.first != nil, !state.value.stopped { work() }
        }
    }

    /// Tries `file` until it is sent, it goes, or the uploads stop.
    private func send(_ file: String) async {
        var attempt = 0
        var wait = Self.firstWait
        while !state.value.stopped {
            guard FileManager.default.fileExists(atPath: file) else {
                finished(file, sent: false)
                report(UploadReport(file: file, kind: .gone))
                return
            }
            attempt += 1
            let began = ContinuousClock.now
            let result = await ExternalCommand.run(command.arguments(file: file, host: host), timeout: Self.attemptTimeout)
            if result.status == 0 {
                finished(file, sent: true)
                report(UploadReport(file: file, kind: .done(seconds: (ContinuousClock.now - began).seconds)))
                return
            }
            state.withValue { _ = $0.failing.insert(file) }
            let said = result.output.split(separator: "\n").last.map(String.init) ?? ""
            let reason = result.problem ?? "exit \(result.status ?? -1)" + (said.isEmpty ? "" : ": " + said)
            report(UploadReport(file: file, kind: .failed(attempt: attempt, reason: command.hiding(reason), retryIn: wait)))
            let until = ContinuousClock.now + wait
            while ContinuousClock.now < until, !state.value.stopped { try? await Task.sleep(for: .milliseconds(200)) }
            wait = min(wait * 2, Self.longestWait)
        }
    }

    /// Done with `file`: `keep` may delete it once sent, before it stops counting as pending.
    private func finished(_ file: String, sent: Bool) {
        journal.finish(file)
        if sent {
            state.withValue { _ = $0.sent.insert(file) }
            onSent.value?(file)
        }
        state.withValue { state in
            state.queue.removeAll { $0 == file }
            state.failing.remove(file)
            if sent { state.done += 1 }
        }
    }
}
