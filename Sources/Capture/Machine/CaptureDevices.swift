import CaptureGraph
import CaptureModel
import Foundation

/// The cameras and microphones this machine has now, and the sound server's sources, as a session would
/// find them: what `devices`, `controls` and a description naming real devices see.
public enum CaptureDevices {
    public static func list() -> [CaptureDevice] {
        DeviceDiscovery.devices()
    }

    /// The sound server's capture sources by name (empty without PipeWire or PulseAudio).
    public static func soundServerSourceNames() -> Set<String> {
        DeviceDiscovery.soundServerSourceNames()
    }
}

/// Reports cameras arriving and leaving (a USB camera plugged in or out, a driver bound again) until
/// stopped or let go.
public final class CameraWatcher: Sendable {
    private let watch: CameraWatch

    /// Nil when GStreamer's V4L2 plugin, which hears udev, is missing.
    public init?(report: @escaping @Sendable (CameraChange) -> Void) {
        guard let watch = CameraWatch(report: report) else { return nil }
        self.watch = watch
    }

    public func stop() {
        watch.stop()
    }
}
