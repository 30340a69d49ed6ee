import ArgumentParser
import GStreamer

@main
struct Pipcam: AsyncParsableCommand {
    /// pipcam's own version. `pipcam --version` adds the GStreamer library it runs on, found at launch.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "pipcam",
        abstract: "Record two cameras and two microphones at once, picture-in-picture, into one Matroska file.",
        version: "pipcam \(version) (\(Gst.version))",
        subcommands: [Record.self, Preview.self, Photo.self, Check.self, Devices.self, Validate.self, Describe.self]
    )
}
