import ArgumentParser
import Capture
import Foundation

/// `pipcam stream ADDRESS…`: the composed picture and the mixed sound sent live with no recording, what
/// people most often do with a streaming program. The session is `record`'s, its file left unwritten.
struct StreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Send the picture and sound live, writing no file, until Ctrl-C, SIGTERM or --duration.")

    @Argument(help: ArgumentHelp(
        "Where to send it: srt://host:port, srt://:port (viewers pull), rtmp://host/app/key or hls:folder; NAME=ADDRESS names it (default: the pipeline file's output.streams).",
        valueName: "address"))
    var addresses: [String] = []

    @OptionGroup
    var sessionOptions: SessionOptions

    @OptionGroup
    var duration: DurationOption

    @OptionGroup(title: "Streams")
    var streamOptions: StreamOptions

    @Option(name: .long, help: ArgumentHelp("Write the session's events to this file, as JSON lines.", valueName: "file.jsonl"))
    var events: String?

    @OptionGroup(title: "Live control")
    var live: LiveOptions

    func run() async throws {
        let configuration = try await prepare()
        let eventsLog = try events.map { try EventsLog(path: $0, force: false) }
        defer { eventsLog?.close() }
        let session = try CaptureSession(configuration: configuration)
        session.recordingLimit = duration.limit
        let controls = try await ControlInputs(session: session, options: live, photoDirectory: nil, photoOptions: PhotoOptions.parse([]))
        defer { controls.finish() }
        let stopper = SignalStopper(session: session, notice: "stopping the streams…")
        defer { stopper.cancel() }
        try await session.startRunning()
        let streams = configuration.streams.map { "'\($0.name)' to \($0.shownAddress)" }.joined(separator: ", ")
        let web = controls.webURL.map { "; the page at \($0)" } ?? ""
        FileHandle.standardError.write(Data("streaming \(streams) (\(SessionEventPrinter.cameraModes(of: session)))\(web); Ctrl-C to stop\n".utf8))
        let outcome = await SessionEventPrinter(making: .streams, controls: controls, eventsLog: eventsLog).run(session)
        outcome.map { print($0.summary) }
        if let failure = outcome?.failure { throw CLIError("streaming stopped early: \(failure)") }
    }

    /// The session of the description (or the devices) with its file unwritten, and the streams of the
    /// command line added to the description's; checked before a camera opens.
    private func prepare() async throws -> SessionConfiguration {
        var configuration = try sessionOptions.configuration(outputPath: nil)
        configuration.movieFile?.writesFile = false
        configuration.streams = try streamOptions.streams(addresses, besides: configuration.streams)
        guard !configuration.streams.isEmpty else {
            throw CLIError("give where to send it: pipcam stream rtmp://HOST/APP/KEY (or output.streams in the pipeline file)")
        }
        if live.web != nil { configuration.attachPreviewPictures() }
        return try await CostGate.admit(configuration, pipeline: sessionOptions.pipeline)
    }
}
