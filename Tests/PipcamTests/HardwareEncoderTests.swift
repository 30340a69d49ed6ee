import Foundation
import PipcamTestSupport
import XCTest

/// `encoder: automatic` with a hardware encoder GStreamer lists but that cannot start: libav's OpenMAX IL
/// encoder is installed on every machine pipcam runs on and starts on none without an OpenMAX library, as a
/// VA-API encoder does not start on a driver without H.264 encoding. (No machine here has a hardware
/// encoder that starts.)
final class HardwareEncoderTests: XCTestCase {
    private let refusing = ["PIPCAM_HARDWARE_ENCODERS": "avenc_h264_omx"]

    private func description(_ encoder: String, in folder: String) throws -> String {
        let path = "\(folder)/encoder.yaml"
        let demo = try String(contentsOfFile: "\(Paths.repository)/pipelines/demo.yaml", encoding: .utf8)
        XCTAssertTrue(demo.contains("encoder: software"), "the demo records with x264")
        try demo.replacingOccurrences(of: "encoder: software", with: "encoder: \(encoder)").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// It is tried, refuses, and the recording goes on with x264, saying so in one line.
    func testAutomaticFallsBackToX264WithOneLineWhenTheListedEncoderDoesNotStart() throws {
        let folder = try Paths.scratch("encoder-fallback")
        let file = "\(folder)/out.mkv"
        let result = try Command.run([Paths.pipcam, "record", file, "--pipeline", try description("automatic", in: folder), "--duration", "2"],
                                     environment: refusing)
        XCTAssertEqual(result.status, 0, result.error)
        let said = (result.output + result.error).split(separator: "\n").filter { $0.contains("avenc_h264_omx") }
        XCTAssertEqual(said.count, 1, "one line: \(result.output) \(result.error)")
        XCTAssertTrue(said.first?.contains("did not start") == true && said.first?.contains("recording with x264") == true, "\(said)")
        XCTAssertEqual(try MediaProbe(path: file).videoStreams.first?.codecName, "h264")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        // x264 signs its stream.
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: Data("x264 - core".utf8)) != nil, "recorded with x264")
    }

    /// `encoder: hardware` asks for hardware and nothing else: refused before anything records, in one line
    /// giving the encoder's reason.
    func testHardwareIsRefusedInOneLineWhenTheListedEncoderDoesNotStart() throws {
        let folder = try Paths.scratch("encoder-refused")
        let file = "\(folder)/out.mkv"
        let start = ContinuousClock.now
        let result = try Command.run([Paths.pipcam, "record", file, "--pipeline", try description("hardware", in: folder), "--duration", "2"],
                                     environment: refusing)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10))
        let lines = result.error.split(separator: "\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 1, result.error)
        XCTAssertTrue(result.error.contains("no hardware H.264 encoder is available: avenc_h264_omx is installed but did not start"), result.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
    }
}
