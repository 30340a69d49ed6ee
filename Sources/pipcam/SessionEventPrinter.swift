import Capture
import Foundation
import Locking

/// The one loop over a running session's events, for `record` and `preview`: it says what happens on
/// standard error (failures, warnings, devices leaving, files cut, a closed window), keeps the status
/// line of a recording, writes the events file, and returns once the session has stopped.
struct SessionEventPrinter {
    /// What the session ended with: its summary, and the first failure (the ones after it are its
    /// consequences).
    struct Outcome {
        let summary: RecordingSummary
        let failure: String?
        /// The disk filled up: the recording ended there, with what the file holds.
        var diskFull = false
    }

    /// What the session makes: a recording (a status line, a file to finish), streams alone (a status
    /// line, nothing to finish), or a preview (neither).
    enum Making { case recording, streams, preview }
    let making: Making
    let controls: ControlInputs
    var eventsLog: EventsLog?
    /// `pipcam serve`: recordings start and end while the session goes on.
    var serving = false

    func run(_ session: CaptureSession) async -> Outcome? {
        let pressure = Locked("")
        let ticker: Task<Void, any Error>? = making == .preview ? nil : Task {
            var status = StatusLine()
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(500))
                guard var live = session.liveStatus() else { continue }
                live.uploads = session.uploads.status
                status.show(live, note: pressure.value)
            }
        }
        defer { ticker?.cancel() }
        let finishing = making == .recording ? "finishing the file" : "stopping"
        var failure: String?
        var diskFull = false
        for await event in session.events {
            eventsLog?.write(event)
            controls.publish(event)
            switch event {
            case .pressure(let sample):
                let step = sample.throttleStep > 0 ? ", throttled \(sample.throttleStep)" : ""
                pressure.withValue { $0 = sample.reading.level == .nominal && step.isEmpty ? "" : "pressure \(sample.reading.level)\(step)" }
            case .throttled(let step):
                say(step.summary)
            case .warning(let text):
                say("warning: \(text)")
            case .repaired(let path, let duration):
                say("repaired an unfinished recording: \(path) (\(RecordingSummary.seconds(duration)))")
            case .runtimeError(let error):
                guard failure == nil else { continue }
                failure = "\(error)"
                // Said once the file is closed, with what it holds.
                if case .diskFull = error { diskFull = true } else { say("error: \(error); \(finishing)") }
            case .previewClosed:
                say("the preview window was closed; \(finishing)")
            case .interrupted(let input, let reason, let time):
                say("\(input) lost at \(RecordingSummary.clock(time)): \(reason); the recording goes on without it")
            case .interruptionEnded(let input, let time):
                say("\(input) is back at \(RecordingSummary.clock(time))")
            case .stream(let event):
                say(event.line)
            case .upload(let report):
                say(Self.line(report))
            case .marker(let marker):
                say("marker at \(RecordingSummary.clock(marker.time)): \(marker.title)")
            case .paused(let time):
                say("paused at \(RecordingSummary.clock(time)); p or the resume command goes on")
            case .resumed(let time, let length):
                say("resumed at \(RecordingSummary.clock(time)) after \(RecordingSummary.seconds(length))")
            case .sound(let alert):
                say(alert.kind == .heard ? alert.text : "warning: \(alert.text)")
            case .segmentFinished(let summary):
                if serving {
                    // Between recordings the graph writes no file; a recording's end says where it went.
                    if let path = summary.path { say("finished \(path): \(summary.recordedLine)") }
                } else {
                    say("finished \(summary.path ?? "a file"); recording goes on in the next")
                }
            case .stopped(let summary):
                ticker?.cancel()
                await controls.drain()
                if making != .preview { StatusLine().finish() }
                return Outcome(summary: summary, failure: failure, diskFull: diskFull)
            default:
                break
            }
        }
        return nil
    }

    /// An upload's line: sent, a try that failed (and when the next is), a file gone before it was sent.
    static func line(_ report: UploadReport) -> String {
        let name = URL(fileURLWithPath: report.file).lastPathComponent
        switch report.kind {
        case .done(let seconds): return "uploaded \(name) (\(String(format: "%.1f", seconds)) s)"
        case .failed(let attempt, let reason, let retry):
            return "warning: uploading \(name) failed (try \(attempt)): \(reason); trying again in \(Int(retry.seconds.rounded())) s"
        case .gone: return "warning: \(report.file) went before it was uploaded"
        }
    }

    /// The mode each camera runs in, for the line that says the session started.
    static func cameraModes(of session: CaptureSession) -> String {
        session.cameraModes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    /// A line of its own, below the status line, as plain text: names and paths in it may come from a
    /// hostile file or device.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("\n\(TerminalText.plain(text))\n".utf8))
    }
}
