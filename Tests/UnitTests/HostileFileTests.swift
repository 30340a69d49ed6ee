import Capture
import Foundation
import PipcamTestSupport
import XCTest

/// Files a description names, or is, that would block, never end or not be a file: refused by type,
/// before anything opens them, in one line naming what and where.
final class HostileFileTests: XCTestCase {
    private func fifo(in folder: String, named name: String) throws -> String {
        let path = "\(folder)/\(name)"
        XCTAssertEqual(mkfifo(path, 0o600), 0, "mkfifo \(path)")
        return path
    }

    func testADescriptionThatIsAFIFOOrAFolderIsRefusedWithoutOpeningIt() throws {
        let folder = try Paths.scratch("hostile-description")
        let pipe = try fifo(in: folder, named: "session.yaml")
        XCTAssertThrowsError(try PipelineDescription.load(path: pipe)) { error in
            XCTAssertEqual("\(error)", "\(pipe):0:0: file: the description is a FIFO, not a file")
        }
        XCTAssertThrowsError(try PipelineDescription.load(path: folder)) { error in
            XCTAssertTrue("\(error)".hasSuffix("the description is a folder, not a file"), "\(error)")
        }
    }

    func testADescriptionOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let folder = try Paths.scratch("hostile-size")
        let path = "\(folder)/huge.yaml"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(truncate(path, off_t(PipelineDescription.sizeLimit + 1)), 0)
        XCTAssertThrowsError(try PipelineDescription.load(path: path)) { error in
            XCTAssertTrue("\(error)".hasSuffix("the description is \(PipelineDescription.sizeLimit + 1) bytes; a description is at most \(PipelineDescription.sizeLimit) bytes"), "\(error)")
        }
    }

    func testAByteOrderMarkIsAccepted() throws {
        let folder = try Paths.scratch("hostile-bom")
        let path = "\(folder)/bom.yaml"
        try Data([0xEF, 0xBB, 0xBF] + Array("preset: low\ncameras:\n  - name: a\n    synthetic: smpte\n".utf8)).write(to: URL(fileURLWithPath: path))
        let description = try PipelineDescription.load(path: path)
        XCTAssertEqual(description.preset, .low)
        XCTAssertEqual(description.cameras.map(\.name), ["a"])
    }

    func testAClipThatIsAFIFOADeviceOrAFolderNamesTheCameraAndTheFile() throws {
        let folder = try Paths.scratch("hostile-clip")
        _ = try fifo(in: folder, named: "pipe.y4m")
        for (clip, problem) in [("pipe.y4m", "is a FIFO, not a file"), ("/dev/zero", "is a device, not a file"), (".", "is a folder, not a file"),
                                ("gone.y4m", "does not exist")] {
            let text = "cameras:\n  - name: lecture\n    file: \(clip)\n"
            try text.write(toFile: "\(folder)/clip.yaml", atomically: true, encoding: .utf8)
            let description = try PipelineDescription.load(path: "\(folder)/clip.yaml")
            XCTAssertThrowsError(try description.configuration(devices: [], outputPath: "/tmp/x.mkv"), clip) { error in
                XCTAssertEqual("\(error)", "\(folder)/clip.yaml:2:5: cameras[0]: camera 'lecture': the clip '\(clip)' \(problem)")
            }
        }
    }

    func testValidationRefusesAClipThatIsNotAFileWhateverMadeTheConfiguration() throws {
        let folder = try Paths.scratch("hostile-clip-api")
        let pipe = try fifo(in: folder, named: "pipe.y4m")
        let configuration = SessionConfiguration(recording: [.fileCamera(id: "clip", path: pipe)], to: MovieFileOutput(path: "\(folder)/x.mkv"))
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertEqual("\(error)", "camera 'clip': the clip \(pipe) is a FIFO, not a file")
        }
    }
}

/// Mistakes a description can hold that the YAML reader used to pass on at length, or not at all.
final class HostileDescriptionTests: XCTestCase {
    private func refusal(_ text: String) -> String? {
        do {
            _ = try PipelineDescription.parse(text, file: "bad.yaml")
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testADuplicateKeyIsOneLineAtItsMapping() {
        let text = "cameras:\n  - name: a\n    synthetic: smpte\npreset: low\npreset: high\n"
        XCTAssertEqual(refusal(text), "bad.yaml:4:1: syntax: 'preset' given twice in one mapping")
    }

    func testAThirdMicrophoneIsRefusedAtItsEntry() {
        let text = "microphones:\n  - name: a\n    synthetic: 440\n  - name: b\n    synthetic: 550\n  - name: c\n    synthetic: 660\n"
        XCTAssertEqual(refusal(text), "bad.yaml:6:5: microphones[2]: pipcam records at most two microphones")
    }
}
