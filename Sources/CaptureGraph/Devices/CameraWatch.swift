import CaptureModel
import Foundation
import GStreamer
import LinuxIO
import Locking

/// Hears cameras come and go (a USB camera unplugged, a driver unbound and bound again) from the V4L2
/// device provider, which udev tells. The provider is asked directly because on a desktop PipeWire's
/// provider hides it from a device monitor, and a monitor would then report PipeWire's nodes, which say
/// nothing of the V4L2 node a recording uses.
///
/// A camera that went away is reported as it was listed when it arrived (or when the watch began): its
/// by-id link is gone by then, so its id could no longer be worked out.
public final class CameraWatch: @unchecked Sendable {
    private let provider: DeviceProvider
    private var subscription: BusSubscription?
    private let known = Locked<[String: CaptureDevice]>([:])

    /// A watch that calls `report` on its own thread for every change; nil when V4L2's provider is not
    /// installed or cannot watch (no udev).
    public init?(report: @escaping @Sendable (CameraChange) -> Void) {
        guard let provider = DeviceProvider(factory: "v4l2deviceprovider") else { return nil }
        self.provider = provider
        let links = CameraLinks.read()
        known.withValue { known in
            for device in provider.devices {
                if let camera = DeviceDiscovery.captureDevice(device, links: links), let node = camera.node { known[node] = camera }
            }
        }
        subscription = provider.bus.subscribe { [known] message in
            switch message.kind {
            case .deviceAdded(let device):
                guard let camera = DeviceDiscovery.captureDevice(device, links: CameraLinks.readOnceUdevSettles()), let node = camera.node else { return }
                // Starting the provider announces the cameras already there; only new ones are news.
                guard known.withValue({ $0.updateValue(camera, forKey: node) }) == nil else { return }
                report(.arrived(camera))
            case .deviceRemoved(let device):
                guard let node = device.properties["device.path"], let camera = known.withValue({ $0.removeValue(forKey: node) }) else { return }
                report(.left(camera))
            default:
                break
            }
        }
        guard (try? provider.start()) != nil else { return nil }
        // A camera that went away between the first look and the start sends no message of its own.
        let present = Set(provider.devices.compactMap { $0.properties["device.path"] })
        let gone = known.withValue { known in
            let gone = known.filter { !present.contains($0.key) }
            for node in gone.keys { known[node] = nil }
            return Array(gone.values)
        }
        for camera in gone { report(.left(camera)) }
    }

    /// Stops listening to udev through the provider.
    public func stop() {
        subscription?.cancel()
        provider.stop()
    }

    deinit { stop() }
}
