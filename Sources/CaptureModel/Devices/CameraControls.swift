import CV4L2

/// A V4L2 camera's picture controls, read and set while it streams (the driver allows a second open of
/// the node for controls). Photos record their values; bracketing steps one of them.
public struct CameraControls: Sendable {
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
        guard case .v4l2(let path) = device.source else { return nil }
        self.init(node: path)
    }

    public func range(of control: Control) -> Range? {
        var minimum: Int32 = 0, maximum: Int32 = 0, step: Int32 = 0, fallback: Int32 = 0
        guard pc_v4l2_query_control(node, control.id, &minimum, &maximum, &step, &fallback) == 0 else { return nil }
        return Range(minimum: Int(minimum), maximum: Int(maximum), step: Int(max(1, step)), defaultValue: Int(fallback))
    }

    public func value(of control: Control) -> Int? {
        var value: Int32 = 0
        return pc_v4l2_get_control(node, control.id, &value) == 0 ? Int(value) : nil
    }

    public func set(_ control: Control, to value: Int) throws {
        guard pc_v4l2_set_control(node, control.id, Int32(value)) == 0 else {
            throw CaptureError.cameraControl("camera \(node) refused \(control.rawValue) = \(value)")
        }
    }

    /// Every control the camera has, with its value, for a photo's sidecar.
    public func snapshot() -> [String: Int] {
        var values: [String: Int] = [:]
        for control in Control.allCases { if let value = value(of: control) { values[control.rawValue] = value } }
        return values
    }
}
