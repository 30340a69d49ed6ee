import CaptureModel
import Foundation

/// The stable names udev gives camera nodes (`/dev/v4l/by-id/…`, `/dev/v4l/by-path/…`), and which of them
/// name one camera only. Two identical cameras without serial numbers claim the same by-id name, and two
/// cameras of one device (vivid, some capture cards) the same by-path name; udev makes one link, and which
/// node it points at can change from one boot to the next. Such a name alone would name the other camera.
package struct CameraLinks {
    /// The link names each node claims, as udev's database records them ("v4l/by-path/…"), by node.
    let claims: [String: [String]]

    /// The links once udev has handled every event it has queued. A camera's arrival is announced as soon
    /// as udev has handled its own event; a twin arriving with it (a driver bound, two cameras on one hub)
    /// may not be in udev's database yet, and a link they share would look like the first one's alone, so
    /// the first would get an id it would not have a moment later. udev keeps `queue` while events wait.
    package static func readOnceUdevSettles(timeout: Duration = .seconds(3), queue: String = "/run/udev/queue") -> CameraLinks {
        let deadline = ContinuousClock.now + timeout
        while FileManager.default.fileExists(atPath: queue), ContinuousClock.now < deadline { usleep(10_000) }
        return read()
    }

    /// Reads what udev recorded for every camera node in `devices` (its database in `database`).
    package static func read(devices: String = "/dev", database: String = "/run/udev/data") -> CameraLinks {
        var claims: [String: [String]] = [:]
        for node in CaptureDevice.cameraNodes(in: devices) {
            var info = stat()
            guard stat(node, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { continue }
            let entry = "\(database)/c\(major(info.st_rdev)):\(minor(info.st_rdev))"
            guard let text = try? String(contentsOfFile: entry, encoding: .utf8) else { continue }
            claims[node] = text.split(separator: "\n").compactMap { line in
                line.hasPrefix("S:v4l/by-") ? String(line.dropFirst(2)) : nil
            }
        }
        return CameraLinks(claims: claims)
    }

    /// A camera's id: a by-id name it alone claims, else a by-path one; a name it shares, followed by its
    /// bus info (which tells the two apart), when every name is shared; the node itself when udev named
    /// nothing (no udev, or a node created by hand).
    package func id(node: String, busInfo: String?, devices: String = "/dev") -> String {
        let own = claims[node] ?? []
        let byID = own.filter { $0.hasPrefix("v4l/by-id/") }, byPath = own.filter { $0.hasPrefix("v4l/by-path/") }
        for link in byID + byPath where claimants(of: link) == 1 { return "\(devices)/\(link)" }
        if let shared = (byID + byPath).first, let busInfo, !busInfo.isEmpty { return "\(devices)/\(shared)@\(busInfo)" }
        return node
    }

    private func claimants(of link: String) -> Int {
        claims.values.filter { $0.contains(link) }.count
    }

    /// The node's major and minor numbers from `st_rdev` (glibc's encoding; the C macros are not visible to Swift).
    private static func major(_ device: dev_t) -> UInt64 { (UInt64(device) >> 8) & 0xfff | (UInt64(device) >> 32) & ~0xfff }
    private static func minor(_ device: dev_t) -> UInt64 { UInt64(device) & 0xff | (UInt64(device) >> 12) & ~0xff }
}
