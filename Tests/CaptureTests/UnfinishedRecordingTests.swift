import Capture
import Foundation
import PipcamTestSupport
import XCTest

/// A session recording a file makes whole the recordings of pipcam's own cut off beside it, as `record`
/// does: a program using the library gets them back too.
final class UnfinishedRecordingTests: XCTestCase {
    func testASessionRepairsARecordingCutOffBesideItsFileAndSaysSo() async throws {
        let folder = try Paths.scratch("session-repair")
        // A copy of a recording taken while it runs is a recording cut off there, as by a power cut.
        let first = try CaptureSession(configuration: Fixtures.configuration(path: "\(folder)/first.mkv", microphones: []))
        try await first.startRunning()
        let deadline = ContinuousClock.now + .seconds(20)
        while (first.liveStatus()?.fileSize ?? 0) < 200_000, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try FileManager.default.copyItem(atPath: "\(folder)/first.mkv", toPath: "\(folder)/cut.mkv")
        try await first.stopRunning()
        XCTAssertEqual(MatroskaHeader.read(path: "\(folder)/cut.mkv")?.isUnfinishedRecording, true, "the copy is cut off")
        XCTAssertNil(try MediaProbe(path: "\(folder)/cut.mkv").duration, "a cut-off file has no duration")

        let next = try CaptureSession(configuration: Fixtures.configuration(path: "\(folder)/next.mkv", microphones: []))
        next.recordingLimit = .milliseconds(500)
        try await next.startRunning()
        var repaired: [String] = []
        for await event in next.events {
            if case .repaired(let path, let duration) = event {
                repaired.append(path)
                XCTAssertGreaterThan(duration.seconds, 0.1, "it holds what reached the disk")
            }
            if case .stopped = event { break }
        }
        XCTAssertEqual(repaired, ["\(folder)/cut.mkv"], "only the cut-off one; the finished one is left alone")
        XCTAssertEqual(MatroskaHeader.read(path: "\(folder)/cut.mkv")?.isFinished, true)
        XCTAssertGreaterThan(try XCTUnwrap(try MediaProbe(path: "\(folder)/cut.mkv").duration), 0.1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/cut.mkv"), "")
    }
}
