/// One USB bus: the bandwidth every camera plugged into it shares. A bus is a root hub of a host
/// controller (`usb1`, `usb2`, … in sysfs); an xHCI controller has two, one for USB 2.0 devices and
/// one for USB 3.x devices, and a USB 2.0 camera always lands on the 2.0 one.
public struct UsbBus: Sendable, Hashable, Codable {
    /// The root hub's name, e.g. "usb1".
    public var id: String
    /// The host controller above it, e.g. "0000:00:14.0", when known.
    public var controller: String?
    /// Signalling rate in Mbit/s as the kernel reports it: 12, 480, 5000, 10000, 20000.
    public var speed: Double

    public init(id: String, controller: String? = nil, speed: Double) {
        self.id = id
        self.controller = controller
        self.speed = speed
    }

    /// What cameras can count on. USB reserves at most 80 % of each (micro)frame for isochronous
    /// streams, and a UVC camera reserves the packet size of the alternate setting that covers its
    /// stream, which rounds up (often to the largest one); in practice two raw streams that need more
    /// than about 60 % of the nominal rate fail with "No space left on device" when the second starts.
    public static let usableFraction = 0.6

    public var usable: Double { speed * Self.usableFraction }

    /// "USB 2.0" for 480 Mbit/s, "USB 3.x" for 5000 and up.
    public var generation: String {
        switch speed {
        case ..<13: return "USB 1.1"
        case ..<481: return "USB 2.0"
        case ..<5001: return "USB 3.0"
        case ..<10001: return "USB 3.1"
        default: return "USB 3.2"
        }
    }

    public static func usb2(_ id: String, controller: String? = nil) -> UsbBus { UsbBus(id: id, controller: controller, speed: 480) }
    public static func usb3(_ id: String, controller: String? = nil) -> UsbBus { UsbBus(id: id, controller: controller, speed: 5000) }
}
