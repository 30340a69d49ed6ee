/// A camera arriving or going away while pipcam runs.
public enum CameraChange: Sendable, Equatable {
    case arrived(CaptureDevice)
    case left(CaptureDevice)

    public var camera: CaptureDevice {
        switch self {
        case .arrived(let camera), .left(let camera): camera
        }
    }
}
