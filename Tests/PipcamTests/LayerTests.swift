import Foundation
import PipcamTestSupport
import XCTest

/// The command line stands on the capture layer alone. SwiftPM lets a target import any module its
/// dependencies build, so the arrow is checked here rather than by the compiler.
final class LayerTests: XCTestCase {
    func testTheCommandLineImportsNoGStreamer() throws {
        let folder = "\(Paths.repository)/Sources/pipcam"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let imports = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") }
            for module in ["GStreamer", "CGStreamer", "CGio", "CV4L2"] {
                XCTAssertFalse(imports.contains { $0.hasSuffix("import \(module)") }, "\(file) imports \(module)")
            }
        }
    }
}
