import CaptureModel
import Foundation
import GStreamer
import Locking

/// Whether a clip camera's pictures are MJPEG: such a clip is replayed as an MJPEG camera
/// sends, its JPEG pictures decoded by pipcam's own decoder as a camera's are. GStreamer's discoverer
/// answers once for each version of a file (its size and time): a plan is made again at every change a
/// session makes.
enum ClipPictures {
    private struct Version: Hashable {
        let path: String, size: UInt64, modified: Date
    }

    private static let found = Locked([Version: Bool]())

    /// Whether the clip at `path` (not a YUV4MPEG2 one: `Y4MClip` reads those) holds MJPEG pictures one to
    /// a buffer (a container's, as Matroska's are). A bare stream of JPEG pictures is left to decodebin, whose
    /// decoder finds where each picture ends.
    static func isMJPEG(clipAt path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.uint64Value, let modified = attributes[.modificationDate] as? Date else { return false }
        let version = Version(path: path, size: size, modified: modified)
        if let known = found.withValue({ $0[version] }) { return known }
        var mjpeg = false
        if case .video(_, _, "image/jpeg", true) = MediaDiscovery.inspect(path: path, timeout: .seconds(5)) { mjpeg = true }
        found.withValue { $0[version] = mjpeg }
        return mjpeg
    }
}
