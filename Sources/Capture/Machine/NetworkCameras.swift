import CaptureGraph
import CaptureModel

/// Cameras on the network: what one offers (`pipcam probe`), and the check that those a recording
/// cannot do without answer before anything starts.
public enum NetworkCameras {
    /// What the camera sends in its first second, or why it sends nothing.
    public static func probe(_ camera: NetworkCamera, timeout: Duration = .seconds(10)) -> Result<NetworkCameraOffer, NetworkCameraProbeFailure> {
        NetworkCameraProbe.probe(camera, timeout: timeout)
    }

    /// A network camera that is not optional and gives no picture is refused in one line naming it, its
    /// address (password hidden) and why. An optional one is not asked: it waits in its place.
    public static func check(_ configuration: SessionConfiguration, timeout: Duration = .seconds(8)) throws {
        for input in configuration.inputs where !input.isOptional {
            guard case .network(let camera) = input.device.source else { continue }
            if case .failure(let failure) = probe(camera, timeout: timeout) {
                throw CaptureError.invalidConfiguration(
                    "camera '\(input.id)' at \(camera.shownAddress): \(failure) (with optional: true the recording starts without it)")
            }
        }
    }
}
