import ArgumentParser
import Capture
import Foundation

/// `pipcam serve`: a rig nobody sits at. The cameras stay open with the web page (live picture, status,
/// controls), and each recording is started and stopped from the page or its API, into a new file in
/// the folder. SIGTERM or Ctrl-C ends the recording under way with its file finished, then the service.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep the cameras open with a web page, and record on command into new files named by their start time.")

    @OptionGroup
    var sessionOptions: SessionOptions

    @Option(name: .long, help: ArgumentHelp("Where the web page and its API listen (off this machine a token is asked for).", valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(name: .long, help: ArgumentHelp("The folder recordings go in, one file each, named by its start time.", valueName: "folder"))
    var folder: String

    @OptionGroup
    var recordingOptions: RecordingOptions

    @Option(name: .long, help: ArgumentHelp("Also take commands as JSON lines on this Unix socket (as record --control).", valueName: "path"))
    var control: String?

    func run() async throws {
        let folder = try Self.checkFolder(folder)
        let description = try sessionOptions.description()
        // The session as `record` would run it, checked whole now, so a recording on command cannot fail
        // for what could be known at start.
        var recording = try sessionOptions.configuration(outputPath: "\(folder)/recording.mkv", loaded: description)
        let photoFolder = try recordingOptions.apply(to: &recording)
        // The live picture is part of what the recording must afford.
        recording.attachPreviewPictures()
        recording = try await CostGate.admit(recording, pipeline: sessionOptions.pipeline)
        try recording.validate()
        var live = recording
        if let movie = recording.movieFile { live.removeOutput(id: movie.id) }
        live.streams = []
        let session = try CaptureSession(configuration: live)
        let eventsLog = try recordingOptions.events.map { try EventsLog(path: $0, force: false) }
        defer { eventsLog?.close() }
        var liveOptions = try LiveOptions.parse(["--web", listen])
        liveOptions.control = control
        let controls = try await ControlInputs(session: session, options: liveOptions, photoDirectory: photoFolder, photoOptions: recordingOptions.photo,
                                               recorder: ServeRecorder(folder: folder, recording: recording))
        defer { controls.finish() }
        let stopper = SignalStopper(session: session, notice: "stopping, finishing any recording…")
        defer { stopper.cancel() }
        try await session.startRunning()
        if let command = recording.movieFile?.upload { session.uploads.sendPending(with: command, folder: folder, of: session) }
        let modes = SessionEventPrinter.cameraModes(of: session)
        FileHandle.standardError.write(Data("serving \(controls.webURL ?? listen) (\(modes)); recordings go in \(folder); Ctrl-C to stop\n".utf8))
        let outcome = await SessionEventPrinter(making: .preview, controls: controls, eventsLog: eventsLog, serving: true).run(session)
        if let outcome, outcome.summary.path != nil { print(outcome.summary) }
        if let failure = outcome?.failure { throw CLIError("the service stopped: \(failure)") }
    }

    /// An existing folder this user can write in, as an absolute path.
    static func checkFolder(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else { throw CLIError("--folder \(path) does not exist") }
        guard isDirectory.boolValue else { throw CLIError("--folder \(path) is not a folder") }
        guard FileManager.default.isWritableFile(atPath: absolute) else { throw CLIError("cannot write to the folder \(path)") }
        return absolute
    }
}
