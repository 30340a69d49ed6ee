import ArgumentParser
import Capture
import Foundation

/// `pipcam export`: a recording as an MP4 for editors that do not read Matroska, its pictures copied
/// as they are.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a recording as an MP4 for video editors: pictures copied as they are, sound as AAC.")

    @Argument(help: "The recording (.mkv).")
    var input: String

    @Argument(help: "The MP4 file to write.")
    var output: String

    @Flag(name: .long, help: "Overwrite OUTPUT if it exists.")
    var force = false

    func run() async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CLIError("\(input): no such file")
        }
        guard let header = MatroskaHeader.read(path: input) else { throw CLIError("\(input) is not a Matroska file") }
        guard header.isFinished else { throw CLIError("\(input) was cut off before it was finished; run pipcam repair \(input) first") }
        let target = try OutputPath.check(output, force: force, fileExtension: "mp4")
        let name = TerminalText.plain(input)
        FileHandle.standardError.write(Data("exporting \(name) to \(TerminalText.plain(target))…\n".utf8))
        let onTerminal = isatty(STDERR_FILENO) != 0
        do {
            try await RecordingExport.toMP4(from: input, to: target) { share in
                guard onTerminal else { return }
                FileHandle.standardError.write(Data(String(format: "\rexporting: %3.0f %%", share * 100).utf8))
            }
        } catch {
            throw CLIError("could not export \(input): \(error)")
        }
        if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        print("exported \(target)")
    }
}
