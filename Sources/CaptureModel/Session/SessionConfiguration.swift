/// Everything a session runs, as one value: editing a copy and swapping it in whole is what makes
/// `commitConfiguration()` atomic.
public struct SessionConfiguration: Sendable {
    public var inputs: [DeviceInput] = []
    public var movieFile: MovieFileOutput?
    public var videoDataOutputs: [VideoDataOutput] = []
    public var audioDataOutputs: [AudioDataOutput] = []
    public var photoOutput: PhotoOutput?
    public var previewOutput: PreviewOutput?
    /// The recording sent live (`StreamOutput`): each takes the movie file's picture and mix.
    public var streams: [StreamOutput] = []
    public var connections: [Connection] = []
    public var preset: SessionPreset = .high
    /// Overrides the preset's frame rate.
    public var frameRate: Double?
    public var layout = Layout()
    /// What to do when the configuration costs more than the machine has (see `HardwareCost`).
    public var costPolicy = CostPolicy()
    /// How a running session lightens itself under pressure.
    public var throttlePolicy = ThrottlePolicy()
    /// The throttle rung in force while running (set by the session, not by callers): lighter camera
    /// modes, applied live like any other change of capture size.
    package var throttle: ThrottleSettings?
    /// How file cameras are read.
    public var replay = Replay.realTime
    /// What a device failing or going away while recording does.
    public var deviceLoss = DeviceLossPolicy()
    /// Controls of the second camera kept at the first camera's values while recording (`ControlMatch`):
    /// `match: exposure, white-balance` in a description.
    public var matchedControls: [String] = []

    /// `realTime` replays clips at the clock's pace, as the live cameras they stand for (drops included);
    /// `fast` composes recorded clips as fast as they can be read and encoded, losing nothing. Fast
    /// needs every input to be a file camera: a live source cannot be hurried.
    public enum Replay: String, Sendable, CaseIterable {
        case realTime = "real-time", fast
    }

    public init() {}

    /// The usual session: every device an input, each connected to one movie file.
    public init(recording devices: [CaptureDevice], to movie: MovieFileOutput, preset: SessionPreset = .high) {
        self.preset = preset
        movieFile = movie
        for device in devices {
            let input = DeviceInput(device: device)
            inputs.append(input)
            connections.append(Connection(from: input.port, to: movie.id))
        }
    }

    public var outputIDs: [String] {
        (movieFile.map { [$0.id] } ?? []) + videoDataOutputs.map(\.id) + audioDataOutputs.map(\.id) + (photoOutput.map { [$0.id] } ?? [])
            + (previewOutput.map { [$0.id] } ?? [])
    }

    /// Adds a photo output and connects every connected camera to it, turned and mirrored as it records.
    public mutating func attachPhotoOutput(_ output: PhotoOutput) {
        photoOutput = output
        for input in inputs where input.device.isCamera {
            guard let recorded = connections.first(where: { $0.inputPorts.contains(input.port) }) else { continue }
            var connection = Connection(from: input.port, to: output.id)
            connection.rotation = recorded.rotation
            connection.isVideoMirrored = recorded.isVideoMirrored
            connections.append(connection)
        }
    }

    /// Adds a preview and connects its cameras (`PreviewOutput.cameraConnections`).
    public mutating func attachPreviewOutput(_ output: PreviewOutput, mirroringFrontCameras: Bool = true) {
        previewOutput = output
        connections += output.cameraConnections(in: self, mirroringFrontCameras: mirroringFrontCameras)
    }

    /// Makes the preview's JPEG pictures for the web page: of the window's preview when there is one,
    /// else of a preview without a window, composed only while someone watches and shown as recorded (a
    /// front camera is mirrored for the one who looks into it, not for who watches from elsewhere). The
    /// microphones are connected to it too, for the page's meters, so they are heard between recordings.
    public mutating func attachPreviewPictures() {
        if previewOutput == nil { attachPreviewOutput(PreviewOutput(sink: nil, showsOverlay: false), mirroringFrontCameras: false) }
        guard let preview = previewOutput, preview.pictures == nil else { return }
        previewOutput?.pictures = PreviewPictures()
        connections += preview.microphoneConnections(in: self)
    }

    /// Removes an input and every connection from it.
    public mutating func removeInput(id: String) {
        inputs.removeAll { $0.id == id }
        connections.removeAll { $0.inputPorts.contains { $0.inputID == id } }
    }

    /// Removes an output and every connection to it.
    public mutating func removeOutput(id: String) {
        if movieFile?.id == id { movieFile = nil }
        videoDataOutputs.removeAll { $0.id == id }
        audioDataOutputs.removeAll { $0.id == id }
        if photoOutput?.id == id { photoOutput = nil }
        if previewOutput?.id == id { previewOutput = nil }
        connections.removeAll { $0.outputID == id }
    }

    /// The connections from cameras to the photo output.
    package var photoConnections: [Connection] {
        guard let photo = photoOutput else { return [] }
        return connections.filter { $0.outputID == photo.id }
    }

    public var effectiveFrameRate: Double { frameRate ?? preset.frameRate }

    public func input(_ id: String) -> DeviceInput? { inputs.first { $0.id == id } }

    /// The device whose port is connected to a data output (they take exactly one).
    package func deviceID(feeding outputID: String) -> String? {
        connections.first { $0.outputID == outputID }?.inputPorts.first.flatMap { input($0.inputID)?.device.id }
    }

    /// Ends the data outputs' streams when the session stops.
    package func finishDataOutputs() {
        for output in videoDataOutputs { output.delivery.finish() }
        for output in audioDataOutputs { output.delivery.finish() }
    }

    /// Connections into the movie file, cameras then microphones, in the order they were added.
    package func movieConnections(_ mediaType: MediaType) -> [Connection] {
        guard let movie = movieFile else { return [] }
        return connections.filter { $0.outputID == movie.id && $0.mediaType == mediaType }
    }

    /// The camera shown full frame (or first), then the other, as the layout asks: in the recorded picture,
    /// or in the preview when nothing is recorded.
    package func composedCameras() -> (main: Connection, inset: Connection?)? {
        composedCameras(into: movieFile?.id ?? previewOutput?.id)
    }

    /// The same for the picture of one output (the movie file's or the preview's).
    package func composedCameras(into outputID: String?) -> (main: Connection, inset: Connection?)? {
        let cameras = connections.filter { $0.outputID == outputID && $0.mediaType == .video }
        guard let first = cameras.first else { return nil }
        let main = cameras.first { $0.inputPorts.first?.inputID == layout.mainInputID } ?? first
        return (main, cameras.first { $0 != main })
    }

    // MARK: checks

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
        if videoDataOutputs.contains(where: { $0.id == connection.outputID }) {
            if connection.mediaType != .video { return "video data output '\(connection.outputID)' takes a camera port" }
            if connections.contains(where: { $0.outputID == connection.outputID }) || connection.inputPorts.count > 1 {
                return "video data output '\(connection.outputID)' takes exactly one camera"
            }
        }
        if audioDataOutputs.contains(where: { $0.id == connection.outputID }) {
            if connection.mediaType != .audio { return "audio data output '\(connection.outputID)' takes a microphone port" }
            if connections.contains(where: { $0.outputID == connection.outputID }) || connection.inputPorts.count > 1 {
                return "audio data output '\(connection.outputID)' takes exactly one microphone"
            }
        }
        if connection.outputID == photoOutput?.id {
            if connection.mediaType != .video || connection.inputPorts.count > 1 { return "the photo output takes one camera per connection" }
            if connections.contains(where: { $0.outputID == connection.outputID && $0.inputPorts == connection.inputPorts }) {
                return "\(connection.inputPorts[0].inputID) is already connected to the photo output"
            }
        }
        if connection.outputID == previewOutput?.id {  // a microphone's connection is for its meter alone
            if connection.inputPorts.count > 1 { return "the preview takes one camera or microphone per connection" }
            if connection.mediaType == .video && connections.filter({ $0.outputID == connection.outputID && $0.mediaType == .video }).count >= 2 { return "the preview already shows two cameras" }
        }
        if connection.outputID == movieFile?.id && connection.mediaType == .video && movieConnections(.video).count >= 2 {
            return "the movie file already composes two cameras"
        }
        return nil
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
