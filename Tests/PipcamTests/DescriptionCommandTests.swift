import Foundation
import PipcamTestSupport
import XCTest

/// `validate`, `describe` and `devices`, and the errors a description file can get.
final class DescriptionCommandTests: XCTestCase {
    func testEveryShippedPresetValidates() throws {
        let folder = "\(Paths.repository)/pipelines"
        let presets = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertEqual(Set(presets), ["demo.yaml", "pip.yaml", "side-by-side.yaml", "isolated-tracks.yaml", "screen-and-face.yaml", "sync.yaml"])
        for preset in presets {
            let result = try Command.run([Paths.pipcam, "validate", "--pipeline", "\(folder)/\(preset)"])
            XCTAssertEqual(result.status, 0, "\(preset): \(result.error)")
            XCTAssertTrue(result.output.contains("valid"), result.output)
        }
    }

    func testDescribeLineOfTheDemoRunsUnderGstLaunch() throws {
        let folder = try Paths.scratch("describe")
        let file = "\(folder)/launch.mkv"
        let described = try Command.run([Paths.pipcam, "describe", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--output", file, "--dot", "\(folder)/graph.dot"])
        XCTAssertEqual(described.status, 0, described.error)
        let line = described.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(line.hasPrefix("gst-launch-1.0 -e "), line)
        XCTAssertTrue(try String(contentsOfFile: "\(folder)/graph.dot", encoding: .utf8).contains("digraph"))

        // -e turns the interrupt into end-of-stream, so the file is finalized.
        let run = try Command.run(["timeout", "-s", "INT", "3", "sh", "-c", line])
        XCTAssertEqual(run.status, 124, "stopped by the timeout, not by an error: \(run.error)")
        let probe = try MediaProbe(path: file)
        XCTAssertEqual(probe.videoStreams.first?.width, 1280)
        XCTAssertEqual(probe.audioStreams.count, 3)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    func testErrorsNameFileLineColumnAndKeyAndListWhatIsValid() throws {
        let folder = try Paths.scratch("errors")
        let cases: [(String, String)] = [
            ("preset: hd720\nlayout:\n  kind: picture-in-picture\n  colour: red\n",
             "bad.yaml:4:3: layout.colour: unknown key 'colour' (valid keys: kind, main, corner, size, margin)"),
            ("preset: huge\n", "bad.yaml:1:9: preset: 'huge' is not one of low, medium, high, hd720, hd1080, photo"),
            ("cameras:\n  - name: a\n    synthetic: smpte\n    rotation: 45\n", "bad.yaml:4:15: cameras[0].rotation: rotation is 0, 90, 180 or 270, not 45"),
            ("cameras:\n  - name: a\n    synthetic: plaid\n", "bad.yaml:3:16: cameras[0].synthetic: 'plaid' is not a test pattern"),
            ("layout:\n  size: 2\n", "bad.yaml:2:9: layout.size: 2.0 is outside 0.05…0.9"),
        ]
        for (text, expected) in cases {
            let file = "\(folder)/bad.yaml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try Command.run([Paths.pipcam, "validate", "--pipeline", file])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.error.contains(expected), "expected \(expected)\ngot \(result.error)")
        }
    }

    func testDevicesAsJSON() throws {
        let result = try Command.run([Paths.pipcam, "devices", "--json"])
        XCTAssertEqual(result.status, 0, result.error)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertNotNil(json["cameras"] as? [Any])
        XCTAssertNotNil(json["microphones"] as? [Any])
    }

    func testTheReadmeDemoCommandRecordsTheDemoDescription() throws {
        let makefile = try String(contentsOfFile: "\(Paths.repository)/Makefile", encoding: .utf8)
        let demo = makefile.components(separatedBy: "\ndemo:").dropFirst().first ?? ""
        XCTAssertTrue(demo.contains("--pipeline pipelines/demo.yaml"), demo)
        let readme = try String(contentsOfFile: "\(Paths.repository)/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("make demo") && readme.contains("make test"))
    }
}
