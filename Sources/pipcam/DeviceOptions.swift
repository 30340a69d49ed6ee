import ArgumentParser

/// Where the cameras come from, for every command that opens them: a pipeline description, or the
/// devices named here (see `pipcam devices`), or else the first cameras found.
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: "A pipeline description (see pipelines/).")
    var pipeline: String?

    @Option(name: .customLong("camera"), help: "A camera id or node (twice for two cameras; see pipcam devices).")
    var cameras: [String] = []

    @Flag(name: .long, help: "Replace devices of the pipeline file that are not present with synthetic ones.")
    var standIns = false

    func validate() throws {
        if pipeline != nil && !cameras.isEmpty {
            throw ValidationError("--camera chooses devices when no --pipeline is given; name devices in the pipeline file instead")
        }
        if standIns && pipeline == nil { throw ValidationError("--stand-ins applies to the devices of a --pipeline file") }
        if cameras.count > 2 { throw ValidationError("pipcam takes at most two cameras") }
    }
}
