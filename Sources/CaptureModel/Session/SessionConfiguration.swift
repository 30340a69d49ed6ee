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
}
