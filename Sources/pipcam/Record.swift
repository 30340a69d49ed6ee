import ArgumentParser
import Capture
import Foundation
import Locking

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record until Ctrl-C, SIGTERM or --duration; the file is always finalized.")

    @Argument(help: "The Matroska file to write (default: the pipeline file's output.file).")
    var output: String?

    @OptionGroup
    var sessionOptions: SessionOptions

    @OptionGroup
    var duration: DurationOption

    @Flag(name: .long, help: "Overwrite OUTPUT if it exists.")
    var force = false

    @OptionGroup
    var recordingOptions: RecordingOptions

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    @Flag(name: .long, help: "Also show the picture in a window while recording (the same capture: cameras are opened once).")
    var preview = false

    @OptionGroup(title: "Live control")
    var live: LiveOptions

    func run() async throws {
        let recording = try await prepare()
        defer { recording.finish() }
        try await start(recording)
        let printer = SessionEventPrinter(making: .recording, controls: recording.controls, eventsLog: recording.eventsLog)
        let outcome = await printer.run(recording.session)
        outcome.map { print($0.summary) }
        await Self.waitForUploads(of: recording.session, stopper: recording.stopper, eventsLog: recording.eventsLog)
        try report(outcome, path: recording.path)
    }

    /// Once the recording has ended: its files still to send are sent, the progress said; Ctrl-C stops
    /// waiting, and what is left is sent by the next pipcam started in the folder with the same command.
    static func waitForUploads(of session: CaptureSession, stopper: SignalStopper, eventsLog: EventsLog?) async {
        guard let status = session.uploads.status, status.pending > 0 else { return }
        let signals = stopper.count
        FileHandle.standardError.write(Data("sending the recording's files: \(status.text) (Ctrl-C leaves them for the next start)\n".utf8))
        // Each upload's word, said and logged as while recording.
        let follower = Task {
            for await event in session.events {
                guard case .upload(let report) = event else { continue }
                eventsLog?.write(event)
                FileHandle.standardError.write(Data("\(TerminalText.plain(SessionEventPrinter.line(report)))\n".utf8))
            }
        }
        await session.uploads.waitUntilSent(isGivingUp: { stopper.count > signals })
        follower.cancel()
        session.uploads.stop()
        if let left = session.uploads.status, left.pending > 0 {
            FileHandle.standardError.write(Data("\(left.pending) files not sent yet: they are sent when pipcam next records in this folder with the upload command\n".utf8))
        } else {
            FileHandle.standardError.write(Data("every file is sent\n".utf8))
        }
    }

    /// What a recording holds on to while it runs, let go of by `finish()` in reverse order of making.
    private struct Prepared {
        let path: String
        let session: CaptureSession
        let controls: ControlInputs
        let stopper: SignalStopper
        let eventsLog: EventsLog?
        let analysisLog: AnalysisLog?

        func finish() {
            stopper.cancel()
            controls.finish()
            analysisLog?.finish()
            eventsLog?.close()
        }
    }

    /// Everything checked and made before a camera opens: the file's path, the configuration with its
    /// outputs, the cost gate, the logs, the session and what steers it.
    private func prepare() async throws -> Prepared {
        let description = try sessionOptions.description()
        guard let output = output ?? description?.outputPath else {
            throw CLIError("give the file to record to: pipcam record OUT.mkv" + (sessionOptions.pipeline.map { " --pipeline \($0)" } ?? ""))
        }
        let path = try OutputPath.check(output, force: force)
        var configuration = try sessionOptions.configuration(outputPath: path, loaded: description)
        let photoFolder = try recordingOptions.apply(to: &configuration)
        if preview { configuration.attachPreviewOutput(try live.previewOutput()) }
        if live.web != nil { configuration.attachPreviewPictures() }
        configuration = try await CostGate.admit(configuration, pipeline: sessionOptions.pipeline)
        try OutputPath.checkRoom(for: configuration, path: path)
        let eventsLog = try recordingOptions.events.map { try EventsLog(path: $0, force: force) }
        var analysisLog: AnalysisLog?
        do {
            analysisLog = try analysis.start(on: &configuration, force: force)
            let session = try CaptureSession(configuration: configuration)
            session.recordingLimit = duration.limit
            let controls = try await ControlInputs(session: session, options: live, photoDirectory: photoFolder, photoOptions: recordingOptions.photo)
            return Prepared(path: path, session: session, controls: controls, stopper: SignalStopper(session: session),
                            eventsLog: eventsLog, analysisLog: analysisLog)
        } catch {
            analysisLog?.finish()
            eventsLog?.close()
            throw error
        }
    }

    /// Starts the cameras; a start that fails leaves no empty file behind.
    private func start(_ recording: Prepared) async throws {
        let existed = FileManager.default.fileExists(atPath: recording.path)
        do {
            try await recording.session.startRunning()
        } catch {
            if !existed { try? FileManager.default.removeItem(atPath: recording.path) }
            throw error
        }
        let modes = SessionEventPrinter.cameraModes(of: recording.session)
        let web = recording.controls.webURL.map { "; the page at \($0)" } ?? ""
        FileHandle.standardError.write(Data("recording \(recording.path) (\(modes))\(web); Ctrl-C to stop\n".utf8))
    }

    /// The summary on standard output, and a failure or an unfinished file as the one-line error.
    private func report(_ outcome: SessionEventPrinter.Outcome?, path: String) throws {
        guard let outcome else { return }
        if outcome.diskFull { throw CLIError("disk full: \(outcome.summary.recordedLine)") }
        if let failure = outcome.failure { throw CLIError("recording stopped early: \(failure) (what was recorded is in \(path))") }
        if let problem = outcome.summary.problem { throw CLIError("\(path) may be incomplete: \(problem)") }
    }
}

/// Checks the output path before anything starts, so a typo never costs a recording.
enum OutputPath {
    static func check(_ path: String, force: Bool, fileExtension: String = "mkv") throws -> String {
        let url = URL(fileURLWithPath: path)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw CLIError("\(path) is a directory; give a file name such as \(path)/recording.mkv") }
            if !force { throw CLIError("\(path) exists; pass --force to overwrite it") }
        }
        let folder = url.deletingLastPathComponent().path
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("the folder \(folder) does not exist")
        }
        guard manager.isWritableFile(atPath: folder) else { throw CLIError("cannot write to the folder \(folder)") }
        guard url.pathExtension.lowercased() == fileExtension else {
            throw CLIError("\(path) needs a .\(fileExtension) extension" + (fileExtension == "mkv" ? " (pipcam writes Matroska)" : ""))
        }
        if manager.fileExists(atPath: url.path) {
            let kind = (try? manager.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.type] as? FileAttributeType) ?? .typeRegular
            guard kind == .typeRegular else { throw CLIError("\(path) is not a regular file; give the path of a file to write") }
            guard manager.isWritableFile(atPath: url.path) else { throw CLIError("cannot write to \(path): permission denied") }
        }
        return url.path
    }

    /// Refuses to start with less than a minute of recording free on the file's disk, and warns under ten.
    static func checkRoom(for configuration: SessionConfiguration, path: String) throws {
        guard let free = FreeSpace.bytes(at: path), let shortfall = DiskBudget(for: configuration).shortfall(freeBytes: free, path: path) else { return }
        if shortfall.isRefused { throw CLIError("not enough disk space: \(shortfall.room); free some space or record elsewhere") }
        FileHandle.standardError.write(Data("warning: little disk space: \(shortfall.room)\n".utf8))
    }
}

/// Turns Ctrl-C and SIGTERM into a clean stop (EOS, finalized file) instead of an abrupt exit; a second
/// one stops at once, the file ended with what reached it.
final class SignalStopper: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let signals = Locked(0)

    init(session: CaptureSession, notice: String = "stopping, finishing the file…") {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [signals, source] in
                // Signals that come together are handed over as one event: `data` says how many.
                let count = signals.withValue { count in
                    count += max(1, Int(source.data))
                    return count
                }
                guard count == 1 else {
                    if count > 2 { return }
                    FileHandle.standardError.write(Data("\nstopping at once\n".utf8))
                    Task { try? await session.stopRunningAtOnce() }
                    return
                }
                FileHandle.standardError.write(Data("\n\(notice) (again to stop at once)\n".utf8))
                Task { _ = try? await session.stopRunning() }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// How many times Ctrl-C or SIGTERM came.
    var count: Int { signals.value }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}

extension Layout.Kind: ExpressibleByArgument {}
extension SessionPreset: ExpressibleByArgument {}
extension DeviceLossPolicy.Action: ExpressibleByArgument {}
