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

    /// The devices of a list GStreamer hands over, references and all.
    static func adopting(_ head: UnsafeMutablePointer<GList>?) -> [Device] {
        defer { g_list_free(head) }
        var result: [Device] = []
        var list = head
        while let node = list {
            if let data = node.pointee.data { result.append(Device(data, .adopt)) }
            list = node.pointee.next
        }
        return result
    }

    /// A source element already set up for this device (e.g. v4l2src with its `device` property).
    public func makeElement(name: String? = nil) throws -> Element {
        guard let made = gst_device_create_element(device, name) else {
            throw GStreamerError.elementCreationFailed(factory: "source for \(displayName)")
        }
        return Element.wrap(made, .sinkFloating)
    }
}

/// One of GStreamer's device providers ("v4l2deviceprovider", "alsadeviceprovider"…), asked directly
/// rather than through a device monitor. Providers hide each other once probed, process-wide (PipeWire's
/// hides V4L2's and PulseAudio's, PulseAudio's hides ALSA's), so a monitor's second lookup on a desktop
/// sees only the hiding one's devices; a provider asked directly always lists its own. `bus` carries
/// device-added and device-removed messages once `start()` has been called.
public final class DeviceProvider: Object, @unchecked Sendable {
    var provider: UnsafeMutablePointer<GstDeviceProvider> { UnsafeMutableRawPointer(raw).assumingMemoryBound(to: GstDeviceProvider.self) }
    public let factoryName: String
    public let bus: Bus
    private var running = false

    /// The provider of this factory, or nil when its plugin is not installed. There is one per factory in
    /// a process: every wrapper of a factory holds the same provider.
    public init?(factory: String) {
        Gst.ensureInitialized()
        guard let made = gst_device_provider_factory_get_by_name(factory) else { return nil }
        factoryName = factory
        bus = Bus(adopting: gst_device_provider_get_bus(made))
        super.init(made, .adopt)
    }

    deinit { if running { gst_device_provider_stop(provider) } }

    /// Starts watching; afterwards the bus reports devices as they come and go. Starts are counted by
    /// GStreamer, so each wrapper stops only its own.
    public func start() throws {
        guard !running else { return }
        guard gst_device_provider_start(provider) != 0 else {
            throw GStreamerError.stateChangeFailed(element: factoryName, target: "started")
        }
        running = true
    }

    public func stop() {
        if running { gst_device_provider_stop(provider) }
        running = false
    }

    /// The devices present now (the provider probes when it is not started).
    public var devices: [Device] {
        Device.adopting(gst_device_provider_get_devices(provider))
    }
}
