import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam record --analyze`: the JSON lines it writes, read back and checked against what the synthetic
/// devices show and play.
final class AnalyzeCommandTests: XCTestCase {
    private struct Line: Decodable {
        let event: String
        let device: String
        let time: Double
        let sequence: Int?
        let luma: Double?
        let motion: Double?
        let rms: [Double]?
        let advice: String?
    }

    func testAnalysisMeasuresEachCameraAndMicrophoneAndAdvisesOnTheDarkOne() throws {
        let folder = try Paths.scratch("analyze")
        let description = """
            preset: hd720
            cameras:
              - name: dark
                synthetic: black
              - name: ball
                synthetic: ball
            microphones:
              - name: voice
                synthetic: 440
            """
        try description.write(toFile: "\(folder)/dark.yaml", atomically: true, encoding: .utf8)
        let result = try Command.run([Paths.pipcam, "record", "\(folder)/out.mkv", "--pipeline", "\(folder)/dark.yaml",
                                      "--duration", "3", "--analyze", "\(folder)/analysis.jsonl"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.error.contains("advice: dark is too dark"), result.error)

        let text = try String(contentsOfFile: "\(folder)/analysis.jsonl", encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let frames = Dictionary(grouping: lines.filter { $0.event == "frame" }, by: \.device)
        XCTAssertEqual(Set(frames.keys), ["dark", "ball"])
        for (device, measured) in frames {
            XCTAssertGreaterThan(measured.count, 60, "\(device): most of 90 frames analyzed")
            XCTAssertTrue(zip(measured, measured.dropFirst()).allSatisfy { $1.time > $0.time && $1.sequence! > $0.sequence! }, device)
        }
        let luma = frames.mapValues { $0.map { $0.luma! }.reduce(0, +) / Double($0.count) }
        XCTAssertLessThan(luma["dark"]!, 20, "black, but for the clock")
        XCTAssertGreaterThan(luma["ball"]!, 40, "blue background with a yellow ball")
        let motion = frames.mapValues { $0.map { $0.motion! }.reduce(0, +) / Double($0.count) }
        XCTAssertGreaterThan(motion["ball"]!, motion["dark"]! * 2, "the moving ball moves more than a still black picture")

        let sound = lines.filter { $0.event == "sound" }
        XCTAssertEqual(Set(sound.map(\.device)), ["voice"])
        XCTAssertGreaterThan(sound.count, 30)
        XCTAssertEqual(sound[sound.count / 2].rms?.first ?? 0, 0.283, accuracy: 0.03, "a sine at 0.4 of full scale")

        let advice = lines.filter { $0.event == "advice" }
        XCTAssertEqual(advice.map(\.device), ["dark"])
        XCTAssertEqual(advice.first?.advice, "too-dark")
        XCTAssertGreaterThanOrEqual(advice.first?.time ?? 0, 2, "said after the picture stays dark for 2 s")
    }

    func testAnalysisOptionsAreChecked() throws {
        let result = try Command.run([Paths.pipcam, "record", "/tmp/never.mkv", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml",
                                      "--analyze", "/tmp/never.jsonl", "--analyze-size", "big"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("--analyze-size takes WxH"), result.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/never.mkv"))
    }
}
