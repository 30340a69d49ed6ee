import Capture
import Foundation
import GStreamer

/// Everything that changes a running session from outside: the control socket, the terminal's keys, the
/// preview window's keys, and the preview's overlay line. Started once the session runs; `finish()`
/// lets go of all of it.
final class LiveControls: @unchecked Sendable {
    private let control: LiveControl
    private var socket: ControlSocket?
    private var terminal: TerminalKeys?
    private var tasks: [Task<Void, Never>] = []
    private let pressure = Locked<PressureLevel?>(nil)

    init(session: CaptureSession, options: LiveOptions, photoDirectory: String?, photoOptions: PhotoOptions) throws {
        let control = LiveControl(session: session, photoDirectory: photoDirectory, photoOptions: photoOptions)
        self.control = control
        if let path = options.control {
            socket = try ControlSocket(path: path) { line in
                do {
                    return await control.answer(try ControlCommand(jsonLine: line))
                } catch {
                    return LiveControl.line(["ok": false, "error": "\(error)"])
                }
            }
        }
        terminal = TerminalKeys { [weak self] key in self?.press(key) }
        if let preview = session.configuration.previewOutput {
            tasks.append(Task { [weak self] in
                for await key in preview.keys.presses { self?.press(key) }
            })
            if preview.showsOverlay { tasks.append(Self.overlay(on: session, pressure: pressure)) }
        }
    }

    /// A key from the window or the terminal. Keys answer only when something went wrong.
    private func press(_ key: String) {
        guard let command = ControlCommand(key: key, cameras: control.cameraIDs, microphones: control.microphoneIDs) else { return }
        Task { [control] in
            let answer = await control.answer(command)
            if answer.contains(#""ok":false"#) { FileHandle.standardError.write(Data("\n\(key): \(answer)\n".utf8)) }
        }
    }

    /// Shows the system's pressure level in the preview's overlay (from the session's pressure samples).
    func showPressure(_ level: PressureLevel) {
        pressure.withValue { $0 = level }
    }

    /// Rewrites the preview's overlay twice a second.
    private static func overlay(on session: CaptureSession, pressure: Locked<PressureLevel?>) -> Task<Void, Never> {
        Task {
            var overlay = PreviewOverlay(recording: session.configuration.movieFile != nil)
            while !Task.isCancelled {
                if let status = session.liveStatus() { try? session.setPreviewOverlay(overlay.text(for: status, pressure: pressure.value)) }
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
