import CV4L2
import CaptureModel

/// Reads a camera's position from the V4L2 `camera_orientation` control where the driver reports it.
package enum V4L2Orientation {
    package static func position(of node: String) -> DevicePosition? {
        switch pc_v4l2_camera_orientation(node) {
        case 0: return .front
        case 1: return .back
        case 2: return .external
        default: return nil
        }
    }
}
