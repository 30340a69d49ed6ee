import CGStreamer

/// A capture device as GStreamer's device monitor reports it (a V4L2 camera, an ALSA microphone…).
public final class Device: Object, @unchecked Sendable {
    var device: UnsafeMutablePointer<GstDevice> { UnsafeMutableRawPointer(raw).assumingMemoryBound(to: GstDevice.self) }

    /// The human name, e.g. "Integrated Camera" or "vivid".
    public var displayName: String { takeString(gst_device_get_display_name(device)) ?? name }

    /// "Video/Source", "Audio/Source", …
    public var deviceClass: String { takeString(gst_device_get_device_class(device)) ?? "" }

    /// Every format the device can produce.
    public var caps: Caps? { gst_device_get_caps(device).map { Caps(adopting: $0) } }

    /// Properties such as device.path, device.api, device.bus_info (v4l2), alsa.card and alsa.device.
    public var properties: [String: String] {
        guard let structure = gst_device_get_properties(device) else { return [:] }
        defer { gst_structure_free(structure) }
        var result: [String: String] = [:]
        for (name, field) in Structure(structure).fields {
            if case .value(let value) = field { result[name] = value.description }
        }
        return result
    }

    public func hasClasses(_ classes: String) -> Bool { gst_device_has_classes(device, classes) != 0 }

    /// A source element already set up for this device (e.g. v4l2src with its `device` property).
    public func makeElement(name: String? = nil) throws -> Element {
        guard let made = gst_device_create_element(device, name) else {
            throw GStreamerError.elementCreationFailed(factory: "source for \(displayName)")
        }
        return Element.wrap(made, .sinkFloating)
    }
}

/// Watches for capture devices. `devices` lists what is present; `bus` carries device-added and
/// device-removed messages once `start()` has been called.
public final class DeviceMonitor: Object, @unchecked Sendable {
    var monitor: UnsafeMutablePointer<GstDeviceMonitor> { UnsafeMutableRawPointer(raw).assumingMemoryBound(to: GstDeviceMonitor.self) }
    public let bus: Bus
    private var running = false

    /// A monitor for the given classes, e.g. ["Video/Source", "Audio/Source"].
    public init(classes: [String]) {
        Gst.ensureInitialized()
        let made = gst_device_monitor_new()!
        bus = Bus(adopting: gst_device_monitor_get_bus(made))
        // gst_device_monitor_new returns a reference that is already ours (not floating).
        super.init(made, .adopt)
        for deviceClass in classes { gst_device_monitor_add_filter(made, deviceClass, nil) }
    }

    deinit { if running { gst_device_monitor_stop(monitor) } }

    /// Starts probing; afterwards the bus reports devices as they come and go.
    public func start() throws {
        guard gst_device_monitor_start(monitor) != 0 else {
            throw GStreamerError.stateChangeFailed(element: "device monitor", target: "started")
        }
        running = true
    }

    public func stop() {
        if running { gst_device_monitor_stop(monitor) }
        running = false
    }

    /// The devices present now (probes once if the monitor is not started).
    public var devices: [Device] {
        let head = gst_device_monitor_get_devices(monitor)
        defer { g_list_free(head) }
        var result: [Device] = []
        var list = head
        while let node = list {
            if let data = node.pointee.data { result.append(Device(data, .adopt)) }
            list = node.pointee.next
        }
        return result
    }
}
