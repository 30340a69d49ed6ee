import Capture
import PipcamTestSupport
import XCTest

/// The parts of `CameraAccess` that need no camera; the permission and busy cases run on real
/// cameras in `DeviceTests`.
final class CameraAccessTests: XCTestCase {
    func testHoldersNameTheProgramAndItsProcess() throws {
        let folder = try Paths.scratch("holders")
        let node = "\(folder)/video9"
        _ = FileManager.default.createFile(atPath: node, contents: Data())
        XCTAssertTrue(CameraAccess.holders(of: node).isEmpty, "nobody holds a new file")
        let holder = try Command.start(["sh", "-c", "exec 3<\(node); exec sleep 60"])
        defer { holder.signal(SIGKILL); _ = holder.wait() }
        // The shell opens the file, then becomes sleep; wait for that to have happened.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, CameraAccess.holders(of: node).first?.name != "sleep" { usleep(10_000) }
        XCTAssertEqual(CameraAccess.holders(of: node).map(\.pid), [holder.processIdentifier])
        XCTAssertEqual(CameraAccess.heldBy(node), " (in use by sleep, pid \(holder.processIdentifier))")
    }

    func testANodeThatOpensOrIsAbsentIsNoProblem() throws {
        let folder = try Paths.scratch("nodes")
        _ = FileManager.default.createFile(atPath: "\(folder)/video0", contents: Data())
        XCTAssertNil(CameraAccess.problem(opening: "\(folder)/video0"))
        XCTAssertNil(CameraAccess.problem(opening: "\(folder)/video1"), "an absent node is said where it is looked for")
        XCTAssertEqual(CameraAccess.whyNotFound(in: folder), "")
    }

}
