import ArgumentParser
import Capture
import Foundation

/// What a session is made of, for every command that opens or describes one (record, preview, photo,
/// check, validate, describe): a pipeline description, or the devices named here (see `pipcam devices`),
/// or else the first ones found; then the layout and preset, over the description's.
struct SessionOptions: ParsableArguments {
    @Option(name: .long, help: "A pipeline description (see pipelines/).")
    var pipeline: String?

    @Option(name: .customLong("camera"), help: "A camera id or node (twice for two cameras; see pipcam devices).")
    var cameras: [String] = []

    @Option(name: .customLong("mic"), help: "A microphone id, ALSA name, sound-server source or 'default' (up to two).")
    var microphones: [String] = []

    @Flag(name: .long, help: "Replace devices of the pipeline file that are not present with synthetic ones.")
    var standIns = false

    @Option(name: .long, help: "picture-in-picture, side-by-side or top-bottom.")
    var layout: Layout.Kind?

    @Option(name: .long, help: "low, medium, high, hd720, hd1080 or photo (picture size, rate, bitrate).")
    var preset: SessionPreset?

    @Option(name: .long, help: "When a camera or microphone fails or goes away: continue (a slate, until it is back) or stop.")
    var onDeviceLoss: DeviceLossPolicy.Action?

    @Option(name: .long, parsing: .unconditional, help: "Seconds without a frame before a camera counts as lost (default 2).")
    var deviceTimeout: Double?

    @Flag(name: .customLong("force-controls"), help: "A camera control the description sets that the camera lacks, or a value out of its range, is a warning and left out, not an error.")
    var forceControls = false

    func validate() throws {
        if pipeline != nil && !(cameras.isEmpty && microphones.isEmpty) {
            throw ValidationError("--camera and --mic choose devices when no --pipeline is given; name devices in the pipeline file instead")
        }
        if standIns && pipeline == nil { throw ValidationError("--stand-ins applies to the devices of a --pipeline file") }
        if cameras.count > 2 { throw ValidationError("pipcam takes at most two cameras") }
        if microphones.count > SessionLimits.microphones { throw ValidationError("pipcam records at most two microphones") }
        if let deviceTimeout, !SessionLimits.deviceTimeoutSeconds.contains(deviceTimeout) {
            throw ValidationError("--device-timeout takes \(SessionLimits.text(SessionLimits.deviceTimeoutSeconds)) seconds")
        }
    }

    /// The file a session records to when neither the command line nor the description names one.
    static let defaultOutput = "pipcam.mkv"

    /// What the session is, in a few words: the description file, or the cameras named or found.
    var source: String { pipeline ?? (cameras.isEmpty ? "the first two cameras" : cameras.joined(separator: " and ")) }

    /// The description file, read once, when there is one.
    func description() throws -> PipelineDescription? {
        try pipeline.map { try PipelineDescription.load(path: $0) }
    }

    /// The session these options describe, writing to `outputPath` (else the description's output file,
    /// else pipcam.mkv), with the description's notes printed. `loaded` is the description when the caller
    /// has read it already; `standInsAlways` checks a description's graph on a machine without its devices.
    func configuration(outputPath: String?, loaded: PipelineDescription? = nil, standInsAlways: Bool = false) throws -> SessionConfiguration {
        var configuration: SessionConfiguration
        if var description = try loaded ?? description() {
            // The command line's policy decides what an absent optional camera becomes, so it applies first.
            if let onDeviceLoss { description.deviceLoss.action = onDeviceLoss }
            description.forceControls = forceControls
            let notes: [String]
            (configuration, notes) = try SessionLoading.configuration(description, outputPath: outputPath ?? description.outputPath ?? SessionOptions.defaultOutput,
                                                                      standIns: standIns || standInsAlways)
            for note in notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        } else {
            configuration = try SessionLoading.fromDevices(cameraIDs: cameras, microphoneIDs: microphones, outputPath: outputPath ?? SessionOptions.defaultOutput)
        }
        if let layout { configuration.layout.kind = layout }
        if let preset { configuration.preset = preset }
        if let onDeviceLoss { configuration.deviceLoss.action = onDeviceLoss }
        if let deviceTimeout { configuration.deviceLoss.silenceTimeout = .milliseconds(Int((deviceTimeout * 1000).rounded())) }
        // A clip that will not play is refused here, naming its camera, for every command alike.
        try PlayableClips.check(configuration)
        return configuration
    }
}
