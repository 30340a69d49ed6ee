import ArgumentParser
import Capture
import Foundation

@main
struct Pipcam: AsyncParsableCommand {
    /// pipcam's own version. `pipcam --version` adds the GStreamer library it runs on, found at launch.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "pipcam",
        abstract: "Record two cameras and two microphones at once, picture-in-picture, into one Matroska file.",
        version: "pipcam \(version) (\(CaptureLibrary.version))",
        subcommands: [Record.self, StreamCommand.self, Preview.self, Serve.self, Photo.self, SyncCheck.self, Check.self, Devices.self, Controls.self, Validate.self, Describe.self, Repair.self, Export.self, Probe.self]
    )

    /// Parses the command line, starts the capture layer once (not for --help or --version), and runs the command.
    static func main() async {
        do {
            var command = try parseAsRoot()
            try CaptureLibrary.start()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(printing: error)
        }
    }
}

extension Pipcam {
    /// Ends the program with the error's message, its control characters escaped (the message may quote
    /// a path or a name), and ArgumentParser's exit code for it. Help and version go out as they are.
    static func exit(printing error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let message = fullMessage(for: error)
        if !message.isEmpty { FileHandle.standardError.write(Data((TerminalText.plain(message) + "\n").utf8)) }
        Foundation.exit(code.rawValue)
    }
}
