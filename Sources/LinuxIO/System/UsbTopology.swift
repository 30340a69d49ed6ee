import CaptureModel
import Foundation

/// Which USB bus each V4L2 camera sits on, read from sysfs: the camera's node
/// (/sys/class/video4linux/videoN) resolves to a path through its USB device up to the root hub
/// (`usbN`), whose `speed` file gives the bus's rate. Cameras that are not on USB (built-in CSI
/// cameras, vivid) have no bus and no bandwidth limit here.
public enum UsbTopology {
    /// The bus of every camera input on a V4L2 device, by input id.
    public static func buses(of configuration: SessionConfiguration, sysfs: String = "/sys") -> [String: UsbBus] {
        var result: [String: UsbBus] = [:]
        for input in configuration.inputs {
            guard case .v4l2(let path) = input.device.source, let bus = bus(ofNode: path, sysfs: sysfs) else { continue }
            result[input.id] = bus
        }
        return result
    }

    /// The bus of a video node such as /dev/video0 (or a /dev/v4l/by-id link to one).
    public static func bus(ofNode node: String, sysfs: String = "/sys") -> UsbBus? {
        let name = URL(fileURLWithPath: resolved(node) ?? node).lastPathComponent
        guard let device = resolved("\(sysfs)/class/video4linux/\(name)") else { return nil }
        var folder = URL(fileURLWithPath: device)
        while folder.path != "/" && folder.path.count > sysfs.count {
            let hub = folder.lastPathComponent
            if isRootHub(hub), let speed = number(in: folder.appendingPathComponent("speed").path) {
                let controller = folder.deletingLastPathComponent().lastPathComponent
                return UsbBus(id: hub, controller: controller.isEmpty || controller == "devices" ? nil : controller, speed: speed)
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Root hubs are named usb1, usb2, …; devices below them 1-1, 1-1.2, interfaces 1-1:1.0.
    static func isRootHub(_ name: String) -> Bool {
        name.hasPrefix("usb") && name.count > 3 && name.dropFirst(3).allSatisfy(\.isNumber)
    }

    static func number(in file: String) -> Double? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The path with every symbolic link resolved, or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
