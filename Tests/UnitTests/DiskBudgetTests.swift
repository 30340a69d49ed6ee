import CaptureModel
import XCTest

/// How long a disk's free space lasts a recording, said with the numbers it comes from.
final class DiskBudgetTests: XCTestCase {
    func testTheRateCountsThePictureEachIsolatedCameraAndEachSoundTrack() {
        var configuration = SessionConfiguration(recording: [
            .testPatternCamera(id: "front"), .testPatternCamera(id: "side"),
            .toneMicrophone(id: "voice", frequency: 440), .toneMicrophone(id: "room", frequency: 880),
        ], to: MovieFileOutput(path: "/tmp/x.mkv", videoBitrate: 2000, audioBitrate: 100))
        // The picture, the mix and each microphone's own track.
        XCTAssertEqual(DiskBudget(for: configuration).bytesPerSecond, Double(2000 + 3 * 100) * 125 * 1.1, accuracy: 0.001)
        configuration.movieFile?.isolatedCameraTracks = true
        XCTAssertEqual(DiskBudget(for: configuration).bytesPerSecond, Double(3 * 2000 + 3 * 100) * 125 * 1.1, accuracy: 0.001)
        configuration.movieFile?.writesFile = false
        XCTAssertNil(DiskBudget(for: configuration).timeLeft(freeBytes: 1000), "nothing written, nothing to run out of")
    }

    func testUnderAMinuteIsRefusedAndUnderTenMinutesIsSaid() {
        let budget = DiskBudget(bytesPerSecond: 1_000_000)
        XCTAssertNil(budget.shortfall(freeBytes: 600_000_000, path: "a.mkv"), "ten minutes is enough")
        XCTAssertEqual(budget.shortfall(freeBytes: 599_000_000, path: "a.mkv"),
                       .init(isRefused: false, room: "571.3 MiB free for a.mkv, about 9 min at 8 Mbit/s"))
        XCTAssertEqual(budget.shortfall(freeBytes: 59_000_000, path: "a.mkv")?.isRefused, true)
        XCTAssertEqual(budget.shortfall(freeBytes: 59_000_000, path: "a.mkv")?.room, "56.3 MiB free for a.mkv, about 59 s at 8 Mbit/s")
    }
}
