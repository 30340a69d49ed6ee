import Foundation

/// What a session checks before it changes: an input or a connection as it is added (`canAddInput`,
/// `canAddConnection`), and the whole graph at `commitConfiguration()`. Each output rules on its own
/// connections (`TakesConnections`); each part checks itself (`MovieFileOutput.check`, `Layout.check`).
extension SessionConfiguration {
    /// Why `input` cannot join this configuration, or nil when it can (`canAddInput`).
    public func reasonCannotAdd(_ input: DeviceInput) -> String? {
        if self.input(input.id) != nil { return "input '\(input.id)' is already in the session" }
        if let format = input.activeFormat, let problem = input.device.problem(delivering: format, rate: input.activeFrameRate) {
            return problem
        }
        return nil
    }

    /// Why `connection` cannot be added, or nil (`canAddConnection`).
    public func reasonCannotAdd(_ connection: Connection) -> String? {
        guard !connection.inputPorts.isEmpty else { return "a connection needs at least one input port" }
        for port in connection.inputPorts {
            guard let input = input(port.inputID) else { return "no input '\(port.inputID)' in the session" }
            if !input.ports.contains(port) { return "input '\(port.inputID)' has no \(port.mediaType.rawValue) port" }
        }
        if Set(connection.inputPorts.map(\.mediaType)).count > 1 { return "a connection carries either video or audio ports, not both" }
        guard outputIDs.contains(connection.outputID) else {
            return "no output '\(connection.outputID)' in the session (outputs: \(outputIDs.joined(separator: ", ")))"
        }
        if connections.contains(where: { $0.outputID == connection.outputID && $0.inputPorts == connection.inputPorts }) {
            return "\(connection.inputPorts[0]) is already connected to '\(connection.outputID)'"
        }
        if connection.mediaType == .audio && connection.needsTransform {
            return "rotation and mirroring apply to video connections only"
        }
        let taken = connections.filter { $0.outputID == connection.outputID }
        if let reason = output(connection.outputID)?.reasonCannotTake(connection, besides: taken) { return reason }
        return nil
    }

    /// The output `id` names, as what rules its connections.
    private func output(_ id: String) -> (any TakesConnections)? {
        if let movie = movieFile, movie.id == id { return movie }
        if let preview = previewOutput, preview.id == id { return preview }
        if let photo = photoOutput, photo.id == id { return photo }
        if let video = videoDataOutputs.first(where: { $0.id == id }) { return video }
        return audioDataOutputs.first { $0.id == id }
    }

    /// Checks the whole graph: what `commitConfiguration()` runs before touching anything.
    public func validate() throws {
        var seen = Set<String>(), soundsTaken = Set<String>()
        for input in inputs {
            guard seen.insert(input.id).inserted else { throw CaptureError.invalidConfiguration("input '\(input.id)' is in the session twice") }
            if let format = input.activeFormat, let problem = input.device.problem(delivering: format, rate: input.activeFrameRate) {
                throw CaptureError.invalidConfiguration(problem)
            }
            // Planning reads a clip's first line: a FIFO would block it, a device never end.
            if case .file(let path) = input.device.source, let problem = ReadableFile.problem(at: path) {
                throw CaptureError.invalidConfiguration("camera '\(input.id)': the clip \(path) \(problem)")
            }
            // A camera's sound comes over its connection (its keeper links it), to one microphone.
            if case .cameraSound(let camera) = input.device.source, self.input(camera)?.device.carriesSound != true || !soundsTaken.insert(camera).inserted {
                let why = self.input(camera)?.device.carriesSound == true ? "gives its sound to one microphone only" : "is not a network camera of the session that carries sound (rtsp:// or srt://)"
                throw CaptureError.invalidConfiguration("microphone '\(input.id)': camera '\(camera)' \(why)")
            }
        }
        // Each connection as if added in turn, to all the rest of the session.
        var checked = self
        checked.connections = []
        for connection in connections {
            if let reason = checked.reasonCannotAdd(connection) { throw CaptureError.invalidConfiguration(reason) }
            checked.connections.append(connection)
        }
        try movieFile?.check(cameras: movieConnections(.video).count, microphones: movieConnections(.audio).count, streams: !streams.isEmpty)
        try StreamOutput.check(streams, movie: movieFile)
        if !SessionLimits.deviceTimeoutSeconds.contains(deviceLoss.silenceTimeout.seconds) {
            throw CaptureError.invalidConfiguration("device timeout \(deviceLoss.silenceTimeout.seconds) s is outside \(SessionLimits.text(SessionLimits.deviceTimeoutSeconds)) seconds")
        }
        if let preview = previewOutput, !SessionLimits.previewWidth.contains(preview.width) {
            throw CaptureError.invalidConfiguration("preview width \(preview.width) is outside \(SessionLimits.text(SessionLimits.previewWidth))")
        }
        if photoOutput?.isLivePhotoCaptureEnabled == true && movieFile == nil {
            throw CaptureError.invalidConfiguration("live photos are cut from the recorded picture: the session needs a movie file")
        }
        if replay == .fast, let live = inputs.first(where: { if case .file = $0.device.source { return false }; return true }) {
            throw CaptureError.invalidConfiguration("replay fast needs every input to be a file camera, and '\(live.id)' is live")
        }
        try layout.check(inputIDs: inputs.map(\.id), picture: preset.outputSize)
        if !SessionLimits.frameRate.contains(effectiveFrameRate) {
            throw CaptureError.invalidConfiguration("frame rate \(effectiveFrameRate) is outside \(SessionLimits.text(SessionLimits.frameRate))")
        }
    }
}
