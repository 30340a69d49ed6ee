import ArgumentParser
import Capture
import Foundation

/// `pipcam probe URL`: what a network camera sends (its picture's format, size and rate, its sound), read
/// as a recording reads it, or one line saying why it sends nothing.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a network camera sends (rtsp://, srt://, http:// MJPEG): picture, size, rate and sound.")

    @Argument(help: "The camera's URL, as a description's url: takes it.")
    var url: String

    @Option(name: .customLong("password-env"), help: ArgumentHelp("Take the password from this environment variable.", valueName: "variable"))
    var passwordVariable: String?

    @Option(name: .long, help: "Seconds to wait for the first pictures (1…60).")
    var timeout: Double = 10

    func run() throws {
        guard (1...60).contains(timeout) else { throw CLIError("--timeout is 1 to 60 seconds, not \(timeout)") }
        var camera: NetworkCamera
        do { camera = try NetworkCamera(url: url) } catch {
            throw CLIError("\(error)")
        }
        if let passwordVariable {
            guard let password = ProcessInfo.processInfo.environment[passwordVariable], !password.isEmpty else {
                throw CLIError("the password's variable \(passwordVariable) is not set")
            }
            camera.password = password
        }
        switch NetworkCameras.probe(camera, timeout: .milliseconds(Int64(timeout * 1000))) {
        case .success(let offer):
            print(camera.shownAddress)
            for line in offer.lines { print("  " + line) }
        case .failure(let failure):
            throw CLIError("\(camera.shownAddress): \(failure)")
        }
    }
}
