import CV4L2
import CaptureModel
import Foundation
import Locking

/// Why a camera node cannot be used, said with what to do about it. The device monitor silently leaves
/// out nodes it may not open, and GStreamer reports a camera held by another program as "busy", so
/// without this a newcomer sees "no camera" or a driver message and no way forward.
public enum CameraAccess {
    /// Why a node cannot be opened, and what to do about it.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let node: String
        /// e.g. "permission denied (owner root, group video, mode 660)".
        public let reason: String
        /// e.g. "add yourself to the video group: sudo usermod -aG video $USER, then log out and in".
        public let fix: String?

        public var description: String { Self.line(nodes: [node], reason: reason, fix: fix) }

        static func line(nodes: [String], reason: String, fix: String?) -> String {
            let subject = nodes.count == 1 ? "the camera \(nodes[0])" : "the cameras " + nodes.joined(separator: ", ")
            return "cannot open \(subject): \(reason)" + (fix.map { "; \($0)" } ?? "")
        }
    }

    /// Why this process may not open the node and how to fix it, or nil when it opens (or is not there:
    /// that is a different problem, said where the node is looked for).
    public static func problem(opening node: String) -> Problem? {
        let descriptor = open(node, O_RDWR | O_NONBLOCK)
        if descriptor >= 0 {
            close(descriptor)
            return nil
        }
        let error = errno
        switch error {
        case EACCES, EPERM:
            var info = stat()
            guard stat(node, &info) == 0 else { return Problem(node: node, reason: "permission denied", fix: nil) }
            let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(info.st_gid)"
            let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "\(info.st_uid)"
            let reason = "permission denied (owner \(owner), group \(group), mode \(String(info.st_mode & 0o777, radix: 8)))"
            guard info.st_gid != 0, info.st_mode & 0o060 == 0o060 else {
                return Problem(node: node, reason: reason, fix: "only root may use it: run pipcam with sudo, or have udev give the node a group")
            }
            return Problem(node: node, reason: reason, fix: "add yourself to the \(group) group: sudo usermod -aG \(group) $USER, then log out and in")
        case EBUSY:
            return Problem(node: node, reason: "busy" + heldBy(node), fix: "close the program using it, or pick another camera")
        case ENOENT, ENODEV, ENXIO:
            return nil
        default:
            return Problem(node: node, reason: String(cString: strerror(error)), fix: nil)
        }
    }

    /// Why the cameras present were not found, as a clause to add to "found no camera", or "". Nodes that
    /// fail the same way are named together, so the advice is said once.
    public static func whyNotFound(in folder: String = "/dev") -> String {
        var groups: [(nodes: [String], reason: String, fix: String?)] = []
        for problem in unopenableCameras(in: folder) {
            if let index = groups.firstIndex(where: { $0.reason == problem.reason && $0.fix == problem.fix }) {
                groups[index].nodes.append(problem.node)
            } else {
                groups.append(([problem.node], problem.reason, problem.fix))
            }
        }
        return groups.map { "; " + Problem.line(nodes: $0.nodes, reason: $0.reason, fix: $0.fix) }.joined()
    }

    /// Why the path a description names a camera by is not a camera, or nil when it is one or is not there
    /// (a camera that is not plugged in). What is not a character device is refused by its type, never
    /// opened (a FIFO would block the open); a device is opened and asked what it is, within `timeLimit`.
    public static func notACamera(_ path: String, timeLimit: Duration = .seconds(2)) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFCHR: break
        case S_IFDIR: return "is a folder, not a camera"
        case S_IFIFO: return "is a pipe (FIFO), not a camera"
        case S_IFSOCK: return "is a socket, not a camera"
        default: return "is a file, not a camera"
        }
        // A driver may hold an open for long; a thread of its own keeps the wait bounded.
        guard let (result, error) = Blocking.within(timeLimit, "pipcam-camera-check", { (pc_v4l2_captures_video(path), errno) }) else {
            return "did not answer within \(timeLimit.components.seconds) s"
        }
        switch result {
        case 1: return nil
        case 0: return "is a device but not a camera (it does not capture video)"
        default:
            return problem(opening: path)?.reason ?? String(cString: strerror(error))
        }
    }

    /// Camera nodes present on this machine that this process may not open, with the reason for each.
    public static func unopenableCameras(in folder: String = "/dev") -> [Problem] {
        CaptureDevice.cameraNodes(in: folder).compactMap(problem(opening:))
    }

    /// " (in use by cheese, pid 4242)", or "" when no other process has the node open.
    public static func heldBy(_ node: String) -> String {
        let holders = self.holders(of: node)
        guard !holders.isEmpty else { return "" }
        return " (in use by " + holders.map { "\($0.name), pid \($0.pid)" }.joined(separator: "; ") + ")"
    }

    /// Other processes that have the node open, found through their open files in /proc. Processes of
    /// other users are visible only to root; what cannot be read is left out.
    public static func holders(of node: String) -> [(name: String, pid: Int32)] {
        let target = URL(fileURLWithPath: node).resolvingSymlinksInPath().path
        let own = getpid()
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.compactMap { entry -> (name: String, pid: Int32)? in
            guard let pid = Int32(entry), pid != own else { return nil }
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(entry)/fd")) ?? []
            let holds = descriptors.contains { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/fd/\(descriptor)")) == target
            }
            guard holds else { return nil }
            let name = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "process"
            return (escapingControls(name), pid)
        }
        .sorted { $0.pid < $1.pid }
    }

    /// A program may name itself anything; what pipcam prints stays plain text.
    private static func escapingControls(_ text: String) -> String {
        text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
