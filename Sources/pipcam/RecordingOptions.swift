import ArgumentParser
import Capture

/// What a recording writes beside its picture and sound, and how it bears load: shared by `record` and
/// `serve` (where each recording made on command takes them).
struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Record in parts of this length or size, each playable alone: OUTPUT, then OUTPUT-2.mkv, … (10m, 1h, 2GB).", valueName: "time|size"))
    var segment: String?

    @Option(name: .long, help: ArgumentHelp("With --segment, delete the oldest parts: keep this many (48), those of this age (12h, 7d), or this size (20GB).", valueName: "count|age|size"))
    var keep: String?

    @Option(name: .long, help: ArgumentHelp("Hand each finished file (each part, and the last) to this command, with {file}, {name}, {folder} and {host} filled; tried again until it succeeds (rclone copyto {file} store:bucket/{host}/{name}).", valueName: "command"))
    var uploadCommand: String?

    @Option(name: .customLong("stream"), help: ArgumentHelp(
        "Also send the recording live (repeatable): srt://host:port, srt://:port (viewers pull), rtmp://host/app/key or hls:folder; NAME=ADDRESS names it. A stalled network never costs the file.",
        valueName: "address"))
    var streams: [String] = []

    @OptionGroup(title: "Streams")
    var streamOptions: StreamOptions

    @Option(name: .long, help: ArgumentHelp("Write pressure samples and throttle steps to this file, as JSON lines.", valueName: "file.jsonl"))
    var events: String?

    @Flag(name: .customLong("no-throttle"), help: "Never lower camera sizes or the frame rate under load (pressure is still reported).")
    var noThrottle = false

    @Option(name: .long, help: ArgumentHelp("Take a photo on SIGUSR1 (kill -USR1 <pid>) into this folder; cameras are then captured at full size.", valueName: "folder"))
    var photos: String?

    @OptionGroup(title: "Photos")
    var photo: PhotoOptions

    func validate() throws {
        for (flag, value, parse) in [("--segment", segment, { _ = try Segmenting.parse(segment: $0) }), ("--keep", keep, { _ = try Segmenting.parse(keep: $0) })]
            as [(String, String?, (String) throws -> Void)] {
            do { try value.map(parse) } catch { throw ValidationError("\(flag): \(error)") }
        }
        do { _ = try uploadCommand.map(UploadCommand.init) } catch { throw ValidationError("--upload-command: \(error)") }
    }

    /// The options over the description's: `--segment` replaces its length, `--keep` its rule,
    /// `--upload-command` its upload; streams
    /// are added to its own; photos and the throttle. Returns the photos' folder, checked.
    func apply(to configuration: inout SessionConfiguration) throws -> String? {
        if let segment {
            var segmenting = try Segmenting.parse(segment: segment)
            segmenting.keep = configuration.movieFile?.segmenting?.keep
            configuration.movieFile?.segmenting = segmenting
        }
        if let keep {
            guard configuration.movieFile?.segmenting != nil else {
                throw CLIError("--keep deletes the oldest parts of a recording in parts: give --segment too (or output.segment)")
            }
            configuration.movieFile?.segmenting?.keep = try Segmenting.parse(keep: keep)
        }
        if let uploadCommand { configuration.movieFile?.upload = try UploadCommand(uploadCommand) }
        if let program = configuration.movieFile?.upload?.words.first, !ExternalCommand.exists(program) {
            throw CLIError("the upload command's program '\(program)' is not installed (not found on PATH)")
        }
        configuration.streams = try streamOptions.streams(streams, besides: configuration.streams)
        let photoFolder = try photos.map(PhotoOptions.checkFolder)
        if photoFolder != nil { configuration.attachPhotoOutput(PhotoOutput(isLivePhotoCaptureEnabled: photo.live)) }
        if noThrottle { configuration.throttlePolicy.isEnabled = false }
        return photoFolder
    }
}
