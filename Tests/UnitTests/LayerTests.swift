import Foundation
import PipcamTestSupport
import XCTest

/// The layers' arrows. The model has no path to GStreamer among its dependencies, so the compiler
/// refuses any import of it there; the session's and the command line's dependencies do reach GStreamer
/// (through the graph), and SwiftPM lets a target import any module its dependencies build, so those
/// arrows are checked here.
final class LayerTests: XCTestCase {
    /// The command line imports the session only, and the session hands on the model's values and the
    /// machine's readers but never the graph: what the command line needs of the graph (devices, cost,
    /// preview, export) the session offers.
    func testTheCommandLineReachesTheGraphOnlyThroughTheSession() throws {
        try assertNoImports(of: ["GStreamer", "CGStreamer", "CGio", "CPipcamGst", "CScaledJPEG", "CV4L2", "CaptureGraph", "CaptureModel", "LinuxIO"], in: "Sources/pipcam")
        let root = "\(Paths.repository)/Sources/Capture"
        var exported: [String] = []
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) where path.hasSuffix(".swift") {
            exported += try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("@_exported import ") }.map { String($0.dropFirst("@_exported import ".count)) }
        }
        XCTAssertEqual(exported.sorted(), ["CaptureModel", "LinuxIO"])
    }

    /// The web page works on the session as the command line does, never on the graph.
    func testTheWebPageReachesTheGraphOnlyThroughTheSession() throws {
        try assertNoImports(of: ["GStreamer", "CGStreamer", "CGio", "CV4L2", "CaptureGraph", "pipcam"], in: "Sources/WebRemote")
    }

    func testTheSessionImportsNoGStreamer() throws {
        try assertNoImports(of: ["GStreamer", "CGStreamer", "CGio", "CPipcamGst", "CScaledJPEG", "CV4L2"], in: "Sources/Capture")
    }

    func testTheModelImportsNoGStreamer() throws {
        try assertNoImports(of: ["GStreamer", "CGStreamer", "CGio", "Capture", "CaptureGraph"], in: "Sources/CaptureModel")
    }

    /// The model holds values: reading and writing the machine (V4L2 ioctls, udev, locks and syncs, /proc
    /// and /sys) is `LinuxIO`'s, which never runs GStreamer either.
    func testTheModelDoesNoLinuxIO() throws {
        try assertNoImports(of: ["CV4L2", "LinuxIO", "GStreamer"], in: "Sources/CaptureModel")
        try assertNoImports(of: ["GStreamer", "CGStreamer", "CaptureGraph", "Capture"], in: "Sources/LinuxIO")
        // V4L2's ioctls are LinuxIO's alone: the graph asks it (CameraStreaming, CameraAccess).
        try assertNoImports(of: ["CV4L2"], in: "Sources/CaptureGraph")
        let root = "\(Paths.repository)/Sources/CaptureModel"
        let calls = try NSRegularExpression(pattern: #"\b(ioctl|flock|fsync|usleep|pc_v4l2_\w+)\("#)
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            let found = calls.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap { Range($0.range, in: code).map { String(code[$0]) } }
            XCTAssertEqual(found, [], "Sources/CaptureModel/\(path) does Linux I/O")
        }
    }

    private func assertNoImports(of modules: [String], in folder: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let root = "\(Paths.repository)/\(folder)"
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }
        XCTAssertFalse(files.isEmpty, "no sources in \(folder)", file: file, line: line)
        for path in files {
            let imports = try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") || $0.hasPrefix("@_exported import ") }
            for module in modules {
                XCTAssertFalse(imports.contains { $0.hasSuffix("import \(module)") }, "\(folder)/\(path) imports \(module)", file: file, line: line)
            }
        }
    }
}
