import ArgumentParser
import Capture
import Foundation

/// `pipcam sync-check`: someone flashes a light and beeps (or claps) in view of the cameras, once a
/// second or so; pipcam finds each flash in each camera and each beep in each microphone, and says how
/// late each microphone is. `--write` sets the microphones' `offset:` in the description.
struct SyncCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-check",
        abstract: "Measure how late each microphone is against the cameras, from flashes and beeps (or claps) in view.",
        discussion: "Flash a light (a phone's screen or torch) while beeping or clapping, once a second, in view of the cameras. The synthetic sync camera and microphone do it by themselves.")

    @OptionGroup
    var sessionOptions: SessionOptions

    @Option(name: .long, help: "How long to listen and watch, in seconds (at least 3: two flashes and beeps are needed).")
    var seconds = 6.0

    @Flag(name: .long, help: "Write each measured microphone's offset into the description (--pipeline).")
    var write = false

    func validate() throws {
        guard seconds.isFinite, (3...60).contains(seconds) else { throw ValidationError("--seconds is 3 to 60, not \(seconds)") }
        if write && sessionOptions.pipeline == nil { throw ValidationError("--write needs --pipeline: the description to write offsets into") }
    }

    func run() async throws {
        var configuration = try sessionOptions.configuration(outputPath: nil)
        let meter = SyncMeter()
        meter.attach(to: &configuration)
        // Nothing is written: the picture is composed as it would be recorded (the cameras run in the modes
        // they record in), and the microphones feed the meter alone.
        if let movie = configuration.movieFile {
            configuration.movieFile?.writesFile = false
            configuration.connections.removeAll { $0.outputID == movie.id && $0.inputPorts.contains { $0.mediaType == .audio } }
        }
        let session = try CaptureSession(configuration: configuration)
        let stopper = SignalStopper(session: session)
        defer { stopper.cancel() }
        FileHandle.standardError.write(Data("watching and listening for \(RecordingSummary.seconds(.milliseconds(Int(seconds * 1000))))…\n".utf8))
        try await session.startRunning()
        let duration = Duration.milliseconds(Int(seconds * 1000))
        // The time is up, or something cut the measuring short: a failure, or a stop asked for (Ctrl-C).
        let early = await withTaskGroup(of: String?.self) { group in
            group.addTask { try? await Task.sleep(for: duration); return nil }
            group.addTask {
                for await event in session.events {
                    if case .runtimeError(let error) = event { return "\(error)" }
                    if case .stopped = event { return "stopped before the \(RecordingSummary.seconds(duration)) were up" }
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        _ = try? await session.stopRunning()
        if let early { throw CLIError("nothing measured: \(early)") }
        let (measures, flashes, beeps) = meter.measures()
        var offsets: [String: Int] = [:]
        for microphone in beeps.keys.sorted() {
            let found = measures.filter { $0.microphone == microphone }
            guard !found.isEmpty else {
                let seen = flashes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                print("\(microphone): no beep with a flash beside it (beeps heard: \(beeps[microphone]!); flashes seen: \(seen.isEmpty ? "none" : seen))")
                continue
            }
            for measure in found {
                let milliseconds = Int((measure.offset * 1000).rounded())
                let side = milliseconds == 0 ? "in step with" : milliseconds > 0 ? "\(milliseconds) ms late against" : "\(-milliseconds) ms early against"
                print("\(microphone) is \(side) \(measure.camera) (\(measure.pairs) flashes and beeps)")
            }
            offsets[microphone] = Int((found.map(\.offset).reduce(0, +) / Double(found.count) * 1000).rounded())
        }
        guard !offsets.isEmpty else { throw CLIError("no microphone measured: flash a light and beep or clap together, once a second, in view of a camera") }
        guard write, let path = sessionOptions.pipeline else { return }
        let range = SoundProcessing.offsetMilliseconds
        if let far = offsets.first(where: { !range.contains($0.value) }) {
            throw CLIError("\(far.key) is \(far.value) ms off, past the \(range.upperBound) ms an offset can take: nothing written")
        }
        // A linked description is written where it is, keeping who may read it.
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited: String
        do { edited = try DescriptionEditor.settingOffsets(offsets, in: text) } catch { throw CLIError("\(path): \(error)") }
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
        try Data(edited.utf8).write(to: file, options: .atomic)
        if let permissions { try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path) }
        print("wrote " + offsets.sorted { $0.key < $1.key }.map { "offset: \($0.value) for \($0.key)" }.joined(separator: ", ") + " into \(path)")
    }
}
