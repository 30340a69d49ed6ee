import ArgumentParser

@main
struct Pipcam: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipcam",
        abstract: "Record two cameras and two microphones at once, picture-in-picture, into one Matroska file.",
        version: "0.1.0",
        subcommands: [Record.self, Preview.self, Photo.self, Check.self, Devices.self, Validate.self, Describe.self]
    )
}
