import Capture
import Foundation
import Locking
import WebRemote

/// Everything that changes a running session from outside: the control socket, the web page, the
/// terminal's keys, the preview window's keys, SIGUSR1 (a photo: `kill -USR1 <pid>`), and the preview's
/// overlay line. Started once the session runs; `drain()` waits for commands under way (a photo being
/// encoded), `finish()` lets go of all of it.
final class ControlInputs: @unchecked Sendable {
    private let control: ControlCommandRunner
    private var socket: ControlSocket?
    private var web: WebRemote?
    private var terminal: TerminalKeys?
    private var tasks: [Task<Void, Never>] = []
    private var photoSignal: DispatchSourceSignal?
    /// Commands from keys and signals still being carried out.
    private let running = Locked<[Task<Void, Never>]>([])

    init(session: CaptureSession, options: LiveOptions, photoDirectory: String?, photoOptions: PhotoOptions, recorder: ServeRecorder? = nil) async throws {
        let control = ControlCommandRunner(session: session, photoDirectory: photoDirectory, photoOptions: photoOptions, recorder: recorder)
        self.control = control
        let answer: ControlHandler = { line in
            do {
                return await control.answer(try ControlCommand(jsonLine: line))
            } catch {
                return .refused("\(error)")
            }
        }
        // The page first: its address is the likelier to be refused (in use), and a refusal then leaves
        // no control socket behind.
        if let address = try options.webAddress() {
            web = try await WebRemote(address: address, token: try Self.token(for: address), session: session, answer: answer)
        }
        if let path = options.control {
            socket = try await ControlSocket(path: path, handle: answer)
        }
        terminal = TerminalKeys { [weak self] key in self?.press(key) }
        signal(SIGUSR1, SIG_IGN)
        let photoSignal = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
        photoSignal.setEventHandler { [weak self] in self?.perform(.photo, from: "SIGUSR1") }
        photoSignal.resume()
        self.photoSignal = photoSignal
        if let preview = session.configuration.previewOutput {
            tasks.append(Task { [weak self] in
                for await key in preview.keys.presses { self?.press(key) }
            })
            if preview.showsOverlay { tasks.append(Self.overlay(on: session, pressure: control.pressure)) }
        }
    }

    /// A key from the window or the terminal.
    private func press(_ key: String) {
        guard let command = ControlCommand(key: key, cameras: control.cameraIDs, microphones: control.microphoneIDs,
                                           main: control.session.configuration.layout.mainInputID) else { return }
        perform(command, from: key)
    }

    /// Carries out a command from a key or a signal; these answer only when something went wrong. Each
    /// waits for the one before, so keys pressed quickly act in order, each on what the last one made
    /// (two presses of a gain key add two steps).
    private func perform(_ command: ControlCommand, from source: String) {
        running.withValue { tasks in
            let previous = tasks.last
            tasks.append(Task { [control] in
                await previous?.value
                let answer = await control.answer(command)
                if !answer.isCarriedOut { FileHandle.standardError.write(Data("\n\(source): \(answer.line)\n".utf8)) }
            })
        }
    }

    /// The token a web page off loopback asks for, said on standard error the one time it is made.
    private static func token(for address: WebAddress) throws -> WebToken? {
        guard !address.isLoopback else { return nil }
        let path = WebToken.defaultPath()
        let (token, made) = try WebToken.loadOrMake(at: path)
        if made { FileHandle.standardError.write(Data("the web page's token, shown this once (kept in \(path)): \(token.text)\n".utf8)) }
        return token
    }

    /// Where the web page is, for the line that says the session started; nil without `--web`.
    var webURL: String? { web?.url }

    /// Waits for the commands under way, so that no photo is left half-written when the session stops,
    /// and closes the web page.
    func drain() async {
        photoSignal?.cancel()
        for task in running.value { await task.value }
        await web?.stop()
    }

    /// An event, for the web page and the status (pressure level and throttle step).
    func publish(_ event: SessionEvent) {
        if case .pressure(let sample) = event {
            control.pressure.withValue { $0 = (sample.reading.level, sample.throttleStep) }
        }
        web?.publish(event)
    }

    /// Rewrites the preview's overlay twice a second.
    private static func overlay(on session: CaptureSession, pressure: Locked<(level: PressureLevel, step: Int)?>) -> Task<Void, Never> {
        Task {
            var overlay = PreviewOverlay(recording: session.configuration.movieFile != nil)
            while !Task.isCancelled {
                if let status = session.liveStatus() { try? session.setPreviewOverlay(overlay.text(for: status, pressure: pressure.value?.level)) }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    func finish() {
        tasks.forEach { $0.cancel() }
        socket?.close()
        terminal?.finish()
    }
}
