import CV4L2
import CaptureModel
import Foundation

extension CaptureDevice {
    /// The V4L2 node this camera has now, to open it again after it went away; nil while it is absent.
    ///
    /// A camera plugged back (or its driver bound again) while its old node is still held open somewhere
    /// (by a program, or by pipcam itself for the moment it takes to let go) comes back under another
    /// number: in the VM, vivid's /dev/video0 and /dev/video1 came back as /dev/video2 and /dev/video3
    /// when bound again a second after a loss on a loaded machine. So a camera is found by its stable link
    /// when it has one, else by its bus info (the port or instance it sits on, which a replug into the
    /// same port keeps), and by its old node only while that node is still the same camera.
    public var currentNode: String? {
        guard let node else { return nil }
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: id)) != nil {
            let resolved = URL(fileURLWithPath: id).resolvingSymlinksInPath().path
            return FileManager.default.fileExists(atPath: resolved) ? resolved : nil
        }
        let resolved = URL(fileURLWithPath: node).resolvingSymlinksInPath().path
        guard let busInfo, !busInfo.isEmpty else {
            return FileManager.default.fileExists(atPath: resolved) ? resolved : nil
        }
        if Self.captureBusInfo(of: resolved) == busInfo { return resolved }
        return Self.cameraNodes().first { Self.captureBusInfo(of: $0) == busInfo }
    }

    /// The bus info of a node that captures video; nil for another kind of device or one that cannot be opened.
    static func captureBusInfo(of node: String) -> String? {
        var text = [CChar](repeating: 0, count: 64)
        guard pc_v4l2_capture_bus_info(node, &text, text.count) == 1 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
