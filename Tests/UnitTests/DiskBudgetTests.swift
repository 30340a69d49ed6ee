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

    /// While recording, the rate is the file's own: nothing in the first second, one warning under ten
    /// minutes, and full under five seconds of room (never under 2 MiB), each time it is so.
    func testTheGuardWarnsOnceAndSaysFullWhileThereIsRoomToFinish() {
        var disk = DiskGuard(path: "a.mkv")
        // 1 MB a second: 10 MB after 10 s.
        XCTAssertNil(disk.check(fileSize: 500_000, elapsed: .milliseconds(500), freeBytes: 1_000), "no rate before a second")
        XCTAssertNil(disk.check(fileSize: nil, elapsed: .seconds(10), freeBytes: 1_000), "no file, nothing to say")
        XCTAssertNil(disk.check(fileSize: 10_000_000, elapsed: .seconds(10), freeBytes: 600_000_000))
        XCTAssertEqual(disk.check(fileSize: 10_000_000, elapsed: .seconds(10), freeBytes: 599_000_000),
                       .filling(.init(isRefused: false, room: "571.3 MiB free for a.mkv, about 9 min at 8 Mbit/s")))
        XCTAssertNil(disk.check(fileSize: 10_000_000, elapsed: .seconds(10), freeBytes: 300_000_000), "said once")
        XCTAssertNil(disk.check(fileSize: 10_000_000, elapsed: .seconds(10), freeBytes: 5_000_001))
        XCTAssertEqual(disk.check(fileSize: 10_000_000, elapsed: .seconds(10), freeBytes: 4_999_999), .full)
        XCTAssertEqual(disk.check(fileSize: 10_000_000, elapsed: .seconds(10), freeBytes: 4_000_000), .full)
        // A slow file keeps 2 MiB.
        XCTAssertEqual(disk.check(fileSize: 10_000, elapsed: .seconds(10), freeBytes: (2 << 20) - 1), .full)
        XCTAssertNil(disk.check(fileSize: 10_000, elapsed: .seconds(10), freeBytes: 2 << 20))
    }
}
