import ArgumentParser
import XCTest
import Capture
@testable import pipcam

/// The one options group of every command that opens a session: what it refuses, before anything opens.
final class SessionOptionsTests: XCTestCase {
    private func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try SessionOptions.parse(arguments)
            return nil
        } catch {
            return SessionOptions.message(for: error)
        }
    }

    func testDevicesAreChosenEitherByTheFileOrOnTheCommandLine() {
        XCTAssertEqual(refusal(["--pipeline", "p.yaml", "--camera", "/dev/video0"]),
                       "--camera and --mic choose devices when no --pipeline is given; name devices in the pipeline file instead")
        XCTAssertEqual(refusal(["--pipeline", "p.yaml", "--mic", "default"]),
                       "--camera and --mic choose devices when no --pipeline is given; name devices in the pipeline file instead")
        XCTAssertEqual(refusal(["--stand-ins"]), "--stand-ins applies to the devices of a --pipeline file")
        XCTAssertNil(refusal(["--pipeline", "p.yaml", "--stand-ins", "--layout", "side-by-side", "--preset", "low"]))
    }

    func testAtMostTwoCamerasAndTwoMicrophones() {
        XCTAssertEqual(refusal(["--camera", "a", "--camera", "b", "--camera", "c"]), "pipcam takes at most two cameras")
        XCTAssertEqual(refusal(["--mic", "a", "--mic", "b", "--mic", "c"]), "pipcam records at most two microphones")
        XCTAssertNil(refusal(["--camera", "a", "--camera", "b", "--mic", "default", "--mic", "hw:1,0"]))
    }

    func testLayoutAndPresetAreCheckedByName() throws {
        XCTAssertNotNil(refusal(["--layout", "diagonal"]))
        let options = try SessionOptions.parse(["--layout", "top-bottom", "--preset", "hd720"])
        XCTAssertEqual(options.layout, .topBottom)
        XCTAssertEqual(options.preset, .hd720)
    }
}
