import CV4L2
import CaptureModel
import Foundation

/// A V4L2 camera's controls, read and set while it streams (the driver allows a second open of the node
/// for controls): all of them for `pipcam controls`, a description's `controls:` and live changes;
/// a few by their ids for photos, which record their values, and bracketing, which steps one of them.
public struct CameraControls: Sendable {
    /// The controls photos know by id.
    public enum Control: String, Sendable, CaseIterable {
        case exposure = "exposure_time_absolute", brightness, contrast, saturation, gain
        case exposureMode = "auto_exposure", autoGain = "gain_automatic"

        var id: UInt32 {
            switch self {
            case .brightness: return 0x0098_0900
            case .contrast: return 0x0098_0901
            case .saturation: return 0x0098_0902
            case .autoGain: return 0x0098_0912
            case .gain: return 0x0098_0913
            case .exposureMode: return 0x009A_0901
            case .exposure: return 0x009A_0902
            }
        }
    }

    public struct Range: Sendable, Equatable {
        public let minimum: Int
        public let maximum: Int
        public let step: Int
        public let defaultValue: Int
    }

    public let node: String

    public init(node: String) { self.node = node }

    /// The controls of a device, or nil for synthetic and file-backed cameras, which have none.
    public init?(device: CaptureDevice) {
        switch device.source {
        case .v4l2(let path), .pipewire(_, let path): self.init(node: path)
        case .alsa, .testPattern, .tone, .syncBeeps, .soundServer, .file, .screen, .screencast, .network, .cameraSound: return nil
        }
    }

    // MARK: every control

    /// Every control the camera offers, in the driver's order, with its value now. Class headings and
    /// disabled controls are left out; so are compound ones (arrays, areas), which nothing here sets.
    public func all() throws -> [CameraControl] {
        try withNode { descriptor in
            var controls: [CameraControl] = []
            var query = v4l2_query_ext_ctrl()
            while pc_v4l2_next_control(descriptor, &query) == 0 {
                // The next query starts from this control's id; the rest of the query is the answer.
                if let control = Self.control(query, descriptor: descriptor) { controls.append(control) }
            }
            return controls
        }
    }

    /// One control by id, with its value now; nil when the camera has none.
    public func control(id: UInt32) throws -> CameraControl? {
        try withNode { descriptor in
            var query = v4l2_query_ext_ctrl()
            query.id = id
            guard pc_v4l2_describe_control(descriptor, &query) == 0 else { return nil }
            return Self.control(query, descriptor: descriptor)
        }
    }

    /// Sets a control by id; the error says why the camera refused it.
    public func set(id: UInt32, to value: Int64, name: String) throws {
        try withNode { descriptor in
            guard pc_v4l2_write_control(descriptor, id, value) == 0 else {
                let reason = switch errno {
                case ERANGE, EINVAL: "out of its range"
                case EACCES: "it is read-only"
                case EBUSY: "it is inactive or in use"
                default: String(cString: strerror(errno))
                }
                throw CaptureError.cameraControl(.refused(node: node, control: name, value: value, reason: reason))
            }
        }
    }

    /// Makes the steps of `ControlSettings.plan`: every value a step starts from (`locked`, a relative
    /// change) read first, before an automatic mode is switched off, then each write in order. Returns the controls written, read back.
    @discardableResult
    public func apply(_ steps: [ControlSettings.Step]) throws -> [CameraControl] {
        var current: [UInt32: Int64] = [:]
        for step in steps {
            if case .fixed = step.value { continue }
            guard let value = try control(id: step.control.id)?.value else {
                throw CaptureError.cameraControl(.unreadable(node: node, control: step.control.name))
            }
            current[step.control.id] = value
        }
        for step in steps {
            let value: Int64
            switch step.value {
            case .fixed(let number): value = number
            case .current: value = current[step.control.id] ?? step.control.defaultValue
            case .relative(let change):
                value = min(step.control.maximum, max(step.control.minimum, (current[step.control.id] ?? step.control.defaultValue) + change))
            }
            try set(id: step.control.id, to: value, name: step.control.name)
        }
        var seen = Set<UInt32>()
        return try steps.compactMap { seen.insert($0.control.id).inserted ? try control(id: $0.control.id) : nil }
    }

    private func withNode<Result>(_ body: (Int32) throws -> Result) throws -> Result {
        let descriptor = pc_v4l2_open_controls(node)
        guard descriptor >= 0 else {
            throw CaptureError.cameraControl(.cannotOpen(node: node, reason: String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        return try body(descriptor)
    }

    private static func control(_ query: v4l2_query_ext_ctrl, descriptor: Int32) -> CameraControl? {
        let flags = query.flags
        guard flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0, query.type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue,
              flags & UInt32(V4L2_CTRL_FLAG_HAS_PAYLOAD) == 0 else { return nil }
        let kind: CameraControl.Kind = switch v4l2_ctrl_type(query.type) {
        case V4L2_CTRL_TYPE_INTEGER: .integer
        case V4L2_CTRL_TYPE_BOOLEAN: .boolean
        case V4L2_CTRL_TYPE_MENU: .menu
        case V4L2_CTRL_TYPE_INTEGER_MENU: .integerMenu
        case V4L2_CTRL_TYPE_BUTTON: .button
        case V4L2_CTRL_TYPE_INTEGER64: .integer64
        case V4L2_CTRL_TYPE_BITMASK: .bitmask
        default: .other
        }
        let title = withUnsafeBytes(of: query.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var menu: [CameraControl.MenuEntry] = []
        if kind == .menu || kind == .integerMenu, query.maximum >= query.minimum, query.maximum - query.minimum < 256 {
            for index in query.minimum...query.maximum {
                var name = [CChar](repeating: 0, count: 32)
                var number: Int64 = 0
                guard pc_v4l2_menu_entry(descriptor, query.id, UInt32(index), &name, &number) == 0 else { continue }
                let text = kind == .integerMenu ? String(number) : String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                menu.append(.init(index: Int(index), name: text))
            }
        }
        var value: Int64 = 0
        let readable = kind != .button && flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) == 0 && pc_v4l2_read_control(descriptor, query.id, &value) == 0
        // A bitmask's 32 bits are unsigned; the ioctl gives them as a signed value.
        if kind == .bitmask { value = Int64(UInt32(truncatingIfNeeded: value)) }
        return CameraControl(id: query.id, title: title, kind: kind, minimum: query.minimum, maximum: query.maximum, step: Int64(query.step),
                             defaultValue: query.default_value, value: readable ? value : nil, menu: menu,
                             inactive: flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0, readOnly: flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0)
    }

    // MARK: the few controls photos use

    public func range(of control: Control) -> Range? {
        guard let found = try? self.control(id: control.id) else { return nil }
        return Range(minimum: Int(found.minimum), maximum: Int(found.maximum), step: Int(found.step), defaultValue: Int(found.defaultValue))
    }

    public func value(of control: Control) -> Int? {
        (try? self.control(id: control.id))?.value.map { Int($0) }
    }

    public func set(_ control: Control, to value: Int) throws {
        try set(id: control.id, to: Int64(value), name: control.rawValue)
    }

    /// Every control the camera has, with its value, for a photo's sidecar.
    public func snapshot() -> [String: Int] {
        var values: [String: Int] = [:]
        for control in (try? all()) ?? [] { if let value = control.value { values[control.name] = Int(value) } }
        return values
    }
}
