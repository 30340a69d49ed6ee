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

    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(name: .long, help: "Overwrite OUTPUT if it exists.")
    var force = false

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    @Option(name: .long, help: ArgumentHelp("Write pressure samples and throttle steps to this file, as JSON lines.", valueName: "file.jsonl"))
    var events: String?

    @Flag(name: .customLong("no-throttle"), help: "Never lower camera sizes or the frame rate under load (pressure is still reported).")
    var noThrottle = false

    @Option(name: .long, help: ArgumentHelp("Take a photo on SIGUSR1 (kill -USR1 <pid>) into this folder; cameras are then captured at full size.", valueName: "folder"))
    var photos: String?

    @OptionGroup(title: "Photos")
    var photo: PhotoOptions

    @Flag(name: .long, help: "Also show the picture in a window while recording (the same capture: cameras are opened once).")
    var preview = false

    @OptionGroup(title: "Live control")
    var live: LiveOptions

    func validate() throws {
        if let duration, !(duration > 0 && duration <= 86_400) {
            throw ValidationError("--duration must be between 0 and 86400 seconds, not \(duration)")
        }
    }

    func run() async throws {
        let description = try sessionOptions.description()
        guard let output = output ?? description?.outputPath else {
            throw CLIError("give the file to record to: pipcam record OUT.mkv" + (sessionOptions.pipeline.map { " --pipeline \($0)" } ?? ""))
        }
        let path = try OutputPath.check(output, force: force)
        var configuration = try sessionOptions.configuration(outputPath: path, loaded: description)
        let photoFolder = try photos.map(PhotoOptions.checkFolder)
        if photoFolder != nil { configuration.attachPhotoOutput(PhotoOutput(isLivePhotoCaptureEnabled: photo.live)) }
        if preview { configuration.attachPreviewOutput(try live.previewOutput()) }
        configuration = try await CostGate.admit(configuration, pipeline: sessionOptions.pipeline)
        if noThrottle { configuration.throttlePolicy.isEnabled = false }
        let eventsLog = try events.map { try EventsLog(path: $0, force: force) }
        defer { eventsLog?.close() }
        let analysisLog = try analysis.start(on: &configuration, force: force)
        defer { analysisLog?.finish() }
        let session = try CaptureSession(configuration: configuration)
        if let duration { session.recordingLimit = .milliseconds(Int64(duration * 1000)) }

        let controls = try ControlInputs(session: session, options: live, photoDirectory: photoFolder, photoOptions: photo)
        defer { controls.finish() }
        let stopper = SignalStopper(session: session)
        defer { stopper.cancel() }
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            try await session.startRunning()
        } catch {
            // Nothing was recorded: leave no empty file behind.
            if !existed { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
        let plan = session.runningPlan
        let cameraText = plan?.cameraModes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") ?? ""
        FileHandle.standardError.write(Data("recording \(path) (\(cameraText)); Ctrl-C to stop\n".utf8))

        let pressure = Locked("")
        let ticker = Task {
            var status = StatusLine()
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(500))
                if let live = session.liveStatus() { status.show(live, note: pressure.value) }
            }
        }
        var failure: String?
        for await event in session.events {
            eventsLog?.write(event)
            switch event {
            case .pressure(let sample):
                controls.showPressure(sample.reading.level)
                let step = sample.throttleStep > 0 ? ", throttled \(sample.throttleStep)" : ""
                pressure.withValue { $0 = sample.reading.level == .nominal && step.isEmpty ? "" : "pressure \(sample.reading.level)\(step)" }
            case .throttled(let step):
                FileHandle.standardError.write(Data("\n\(step.summary)\n".utf8))
            case .warning(let text):
                FileHandle.standardError.write(Data("\nwarning: \(text)\n".utf8))
            case .runtimeError(let deviceID, let reason):
                // The first error says what happened; the ones that follow are its consequences.
                guard failure == nil else { continue }
                failure = (deviceID.map { "\($0): " } ?? "") + reason
                FileHandle.standardError.write(Data("\nerror: \(failure!); finishing the file\n".utf8))
            case .previewClosed:
                FileHandle.standardError.write(Data("\nthe preview window was closed; finishing the file\n".utf8))
            case .interrupted(let deviceID):
                FileHandle.standardError.write(Data("\n\(deviceID) went away\n".utf8))
            case .segmentFinished(let summary):
                FileHandle.standardError.write(Data("\nfinished \(summary.path ?? "a file"); recording goes on in the next\n".utf8))
            case .stopped(let summary):
                ticker.cancel()
                await controls.drain()
                StatusLine().finish()
                print(summary)
                if let failure { throw CLIError("recording stopped early: \(failure) (what was recorded is in \(path))") }
                if let problem = summary.problem { throw CLIError("\(path) may be incomplete: \(problem)") }
                return
            default:
                break
            }
        }
    }
}

/// Checks the output path before anything starts, so a typo never costs a recording.
enum OutputPath {
    static func check(_ path: String, force: Bool) throws -> String {
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
        guard url.pathExtension.lowercased() == "mkv" else { throw CLIError("\(path) needs a .mkv extension (pipcam writes Matroska)") }
        return url.path
    }
}

/// Turns Ctrl-C and SIGTERM into a clean stop (EOS, finalized file) instead of an abrupt exit.
final class SignalStopper: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(session: CaptureSession, notice: String = "stopping, finishing the file…") {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileHandle.standardError.write(Data("\n\(notice)\n".utf8))
                Task { _ = try? await session.stopRunning() }
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}

extension Layout.Kind: ExpressibleByArgument {}
extension SessionPreset: ExpressibleByArgument {}
