import Foundation
import PipcamTestSupport
import XCTest

/// The corpus in `HostileDescriptions/`: descriptions written to break pipcam (bad YAML, wrong types,
/// values past every bound, clips that are not videos, layouts that cannot be drawn), each with its
/// verdict in `verdicts.txt`. None may crash pipcam or hang it past 10 s; each refusal is one line naming
/// the text its verdict expects; each accepted one records a file every reader takes.
final class HostileDescriptionTests: XCTestCase {
    private static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HostileDescriptions").path

    private struct Verdict {
        let file: String
        /// nil: valid; else a text the one error line contains.
        let error: String?
    }

    private static func verdicts() throws -> [Verdict] {
        try String(contentsOfFile: "\(corpus)/verdicts.txt", encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Verdict(file: fields[0], error: fields[1] == "valid" ? nil : (fields.count > 2 ? fields[2] : ""))
            }
    }

    /// True when `text` holds a control character other than a line break: what a terminal would obey.
    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) }
    }

    func testEveryHostileDescriptionGetsItsVerdictInOneLineAndWithinSeconds() throws {
        let verdicts = try Self.verdicts()
        XCTAssertGreaterThanOrEqual(verdicts.count, 150)
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { $0.hasSuffix(".yaml") }
        XCTAssertEqual(Set(files), Set(verdicts.map(\.file)), "every file has a verdict, every verdict a file")
        for verdict in verdicts {
            let result = try Command.run(["timeout", "10", Paths.pipcam, "validate", "--pipeline", verdict.file], directory: Self.corpus)
            XCTAssertNotEqual(result.status, 124, "\(verdict.file): no hang")
            XCTAssertLessThan(result.status, 128, "\(verdict.file): no crash: \(result.error)")
            XCTAssertFalse(Self.hasControlCharacters(result.output + result.error), "\(verdict.file): nothing raw reaches the terminal")
            if let expected = verdict.error {
                XCTAssertNotEqual(result.status, 0, "\(verdict.file) is refused")
                let lines = result.error.split(separator: "\n").filter { !$0.hasPrefix("note: ") }
                XCTAssertEqual(lines.count, 1, "\(verdict.file): one line: \(result.error)")
                XCTAssertTrue(lines.first?.hasPrefix("Error: ") == true && lines.first?.contains(expected) == true,
                              "\(verdict.file): '\(expected)' in \(result.error)")
            } else {
                XCTAssertEqual(result.status, 0, "\(verdict.file) is valid: \(result.error)")
            }
        }
    }

    /// Each description the corpus holds as valid records half a second that every reader takes.
    func testEveryValidHostileDescriptionRecordsAFileEveryReaderTakes() throws {
        let folder = try Paths.scratch("hostile-valid")
        for verdict in try Self.verdicts() where verdict.error == nil {
            let path = "\(folder)/\(verdict.file).mkv"
            let result = try Command.run(["timeout", "20", Paths.pipcam, "record", path, "--pipeline", verdict.file, "--preset", "low", "--duration", "0.5"],
                                         directory: Self.corpus)
            XCTAssertEqual(result.status, 0, "\(verdict.file): \(result.error)")
            XCTAssertEqual(try MediaProbe.decodeErrors(path: path), "", verdict.file)
            XCTAssertGreaterThan(try MediaProbe.videoFrameCount(path: path), 0, "\(verdict.file): pictures in the file")
        }
    }
}
