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

/// YAML a description may not use, and layouts that cannot be drawn: one line at the true line and column.
final class HostileYAMLTests: XCTestCase {
    private func refusal(_ text: String) -> String {
        do {
            _ = try PipelineDescription.parse(text, file: "d.yaml")
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    func testAnchorsAliasesAndTagsAreRefusedWhereTheyAre() {
        XCTAssertEqual(refusal("cameras:\n  - &a\n    name: front\n    synthetic: smpte\n  - *a\n"),
                       "d.yaml:2:5: syntax: an anchor ('&…'): a description writes each value out, without anchors, aliases or tags")
        XCTAssertEqual(refusal("cameras:\n  - name: front\n    synthetic: *pattern\n"),
                       "d.yaml:3:16: syntax: an alias ('*…'): a description writes each value out, without anchors, aliases or tags")
        XCTAssertEqual(refusal("cameras:\n  - name: !!str front\n    synthetic: smpte\n"),
                       "d.yaml:2:11: syntax: a tag ('!…'): a description writes each value out, without anchors, aliases or tags")
        XCTAssertEqual(refusal("cameras: [ { name: front, synthetic: !x smpte } ]\n"),
                       "d.yaml:1:38: syntax: a tag ('!…'): a description writes each value out, without anchors, aliases or tags")
    }

    func testTheIndicatorsAsTextAreText() {
        let text = """
            cameras:
              - name: front
                synthetic: smpte
                label: Q&A !now *live* # &comment
              - name: side
                synthetic: ball
                label: "&quoted"
            layout: { kind: side-by-side, main: front }
            """
        XCTAssertEqual(refusal(text), "accepted")
        XCTAssertEqual(refusal("cameras:\n  - name: a\n    synthetic: smpte\n    label: |\n      !not a tag\n      &not an anchor\n"), "accepted")
    }

    func testNulBytesAndOtherEncodingsAreOneLine() throws {
        XCTAssertEqual(refusal("cameras:\n  - name: fr\u{0}ont\n"), "d.yaml:2:13: syntax: a NUL character: a description is plain text")
        let folder = try Paths.scratch("hostile-utf16")
        let path = "\(folder)/utf16.yaml"
        try XCTUnwrap("cameras:\n  - name: a\n    synthetic: smpte\n".data(using: .utf16)).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PipelineDescription.load(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path):1:1: syntax: the file is UTF-16: save it as UTF-8")
        }
    }

    func testAPixelFormatIsOneACameraGivesAndOnlyADevicesOwn() {
        let format = { (source: String, pixelFormat: String) in
            "cameras:\n  - name: a\n    \(source)\n    format:\n      width: 640\n      height: 360\n      pixel-format: \(pixelFormat)\n"
        }
        XCTAssertTrue(refusal(format("device: /dev/video0", "FOO")).hasPrefix("d.yaml:7:21: cameras[0].format.pixel-format: 'FOO' is not a pixel format a camera gives (valid: MJPG, "))
        XCTAssertEqual(refusal(format("synthetic: smpte", "YUY2")),
                       "d.yaml:7:21: cameras[0].format.pixel-format: a pixel format is a device camera's: this camera's pictures are made by pipcam")
        XCTAssertEqual(refusal(format("device: /dev/video0", "MJPG")), "accepted")
    }

    func testNamesAndLabelsHaveTheirStatedLimits() {
        let long = String(repeating: "x", count: 100_000)
        XCTAssertEqual(refusal("cameras:\n  - name: a\n    synthetic: smpte\n    label: \(long)\n"),
                       "d.yaml:4:12: cameras[0].label: a label is at most 200 characters, not 100000")
        XCTAssertEqual(refusal("cameras:\n  - name: \(String(repeating: "n", count: 65))\n    synthetic: smpte\n"),
                       "d.yaml:2:11: cameras[0].name: a name is at most 64 characters, not 65")
        XCTAssertEqual(refusal("cameras:\n  - name: a\n    synthetic: smpte\n    label: \(String(repeating: "é", count: 200))\n"), "accepted")
    }

    func testAnInsetThatReachesPastThePictureIsRefused() {
        XCTAssertEqual(refusal("cameras:\n  - name: a\n    synthetic: smpte\n  - name: b\n    synthetic: ball\nlayout:\n  size: 0.9\n  margin: 0.1\n"),
                       "d.yaml:7:3: layout: the inset (size 0.9, margin 0.1) reaches past the edge of the 1280x720 picture: make the size or the margin smaller")
        XCTAssertEqual(refusal("cameras:\n  - name: a\n    synthetic: smpte\n  - name: b\n    synthetic: ball\nlayout:\n  size: 0.5\n  margin: 0.2\n"), "accepted")
    }
}
