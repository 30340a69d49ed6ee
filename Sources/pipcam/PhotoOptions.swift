import ArgumentParser
import Capture
import Foundation

/// How photos are taken, shared by `pipcam photo` and `pipcam record --photos`.
struct PhotoOptions: ParsableArguments {
    @Option(name: .customLong("photo-format"), help: "jpeg or png.")
    var format: PhotoSettings.Format = .jpeg

    @Flag(name: .long, help: "Back camera first, then front, each once the previous is encoded (default: all at once).")
    var sequential = false

    @Option(name: .long, help: ArgumentHelp("Take N stills per camera, stepping a picture control (2-9).", valueName: "N"))
    var bracket: Int?

    @Option(name: .customLong("bracket-control"), help: "auto (exposure, else brightness, else gain), exposure, brightness or gain.")
    var bracketControl: PhotoSettings.Bracket.Control = .automatic

    @Flag(name: .long, help: "Also save a clip from 1.5 s before to 1.5 s after the shutter.")
    var live = false

    func validate() throws {
        if let bracket, !(2...9).contains(bracket) { throw ValidationError("--bracket takes 2 to 9 stills, not \(bracket)") }
    }

    func settings(directory: String) -> PhotoSettings {
        var settings = PhotoSettings(directory: directory)
        settings.format = format
        settings.timing = sequential ? .sequential : .simultaneous
        settings.bracket = bracket.map { PhotoSettings.Bracket(count: $0, control: bracketControl) }
        settings.livePhoto = live
        return settings
    }

    /// Prints a capture's lifecycle as it happens, one line per still.
    static func show(_ event: PhotoCaptureEvent) {
        switch event {
        case .didFinishProcessingPhoto(let still):
            let step = still.bracket.map { " (" + $0.map { "\($0.key) \($0.value)" }.joined() + ")" } ?? ""
            FileHandle.standardError.write(Data("  \(still.source): \(still.width)x\(still.height)\(step) → \(still.file)\n".utf8))
        case .didFinishCapture(let result):
            if let clip = result.liveClip { FileHandle.standardError.write(Data("  live clip → \(clip)\n".utf8)) }
            print("photo \(result.id): \(result.stills.count) stills, described in \(result.sidecar)")
        default:
            break
        }
    }

    /// The folder photos go to, checked before anything starts.
    static func checkFolder(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("the photo folder \(path) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else { throw CLIError("cannot write to the photo folder \(path)") }
        return url.path
    }
}

extension PhotoSettings.Format: ExpressibleByArgument {}
extension PhotoSettings.Bracket.Control: ExpressibleByArgument {}
