/// A device's way into a session (`AVCaptureDeviceInput`). Its ports are the streams it offers:
/// a camera one video port, a microphone one audio port.
public struct DeviceInput: Sendable, Hashable, Identifiable {
    public let device: CaptureDevice
    /// An exact mode for the device; overrides the session preset.
    public var activeFormat: VideoFormat?
    /// The frame rate to ask of `activeFormat` (its highest when nil).
    public var activeFrameRate: Double?
    /// A camera that may be absent, or held by another program, when the recording starts: it joins the
    /// recording once it can be opened (`optional: true` in a description).
    public var isOptional = false
    /// Settings of the camera's controls (`controls:` in a description), made when it opens and again
    /// each time it comes back (`ControlSettings`).
    public var controls: [ControlSettings.Setting] = []
    /// What is done to a microphone's sound (`gain:`, `high-pass:`, … in a description).
    public var sound = SoundProcessing()
    /// White noise added to a synthetic microphone's tone or beeps, in dBFS (`noise:`): something for
    /// noise suppression to take away.
    public var addedNoise: Double?
    /// How late the sync microphone's beeps come after the sync camera's flashes (`delay:`): a stand-in
    /// for a microphone that is late, for `sync-check` to measure.
    public var beepDelay = Duration.zero

    public init(device: CaptureDevice, activeFormat: VideoFormat? = nil, activeFrameRate: Double? = nil) {
        self.device = device
        self.activeFormat = activeFormat
        self.activeFrameRate = activeFrameRate
    }

    public var id: String { device.id }

    /// What to call the input in a picture: its name in a description ("front"), or, when its id is a
    /// device path no one would write on a slate, the device's own name.
    public var label: String { id.hasPrefix("/") ? device.name : id }

    public var ports: [InputPort] { [InputPort(inputID: id, mediaType: device.mediaType)] }

    /// The single port of the input's media type.
    public var port: InputPort { ports[0] }
}

/// One stream of an input (`AVCaptureInputPort`).
public struct InputPort: Sendable, Hashable, CustomStringConvertible {
    public let inputID: String
    public let mediaType: MediaType

    public var description: String { "\(inputID) (\(mediaType.rawValue))" }
}
