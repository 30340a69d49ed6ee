import Foundation
import PipcamTestSupport
import XCTest

/// Sound and picture in step: the shipped `sync.yaml` recorded for a few seconds, its camera's flashes and
/// its microphone's beeps read back from the file.
final class SyncTests: XCTestCase {
    func testTheSyncPresetsFlashesAndBeepsAreWithinHalfAPictureInTheFile() throws {
        let folder = try Paths.scratch("sync")
        let path = "\(folder)/sync.mkv"
        let result = try Command.run([Paths.pipcam, "record", path, "--pipeline", "\(Paths.repository)/pipelines/sync.yaml", "--duration", "5.5"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try MediaProbe.readerWarnings(path: path), "")
        let titles = try Command.run(["ffprobe", "-v", "error", "-show_entries", "stream_tags=title", "-of", "csv=p=0", path]).output
        XCTAssertEqual(titles.split(separator: "\n"), ["Picture: flash + side", "Mix", "beep", "room", "flash", "side"])
        // A camera's frame lands in the picture nearest to it, half a picture away at most; in its own
        // track, on the grid of its own rate, as near.
        let allowed = 1.0 / 60 + 0.003
        // The flashes come at whole seconds of the clock, wherever the recording starts: one in the file's
        // last moment can have its beep after the end, where the limit cut the sound (a flash 6 ms before
        // the end, its beep due 10 ms after it, once). Every earlier flash has its beep.
        let probe = try MediaProbe(path: path)
        let end = try XCTUnwrap(probe.duration) + (probe.startTime ?? 0)
        // The picture (the flash camera full frame, away from its label and the inset) and the camera's own
        // track, each against the beep microphone's own track.
        for (video, name) in [(0, "picture"), (1, "flash camera's track")] {
            let sync = try SyncOffsets.read(path: path, video: video, region: (x: 400, y: 250, width: 160, height: 120), audio: 1)
            XCTAssertGreaterThanOrEqual(sync.pairs.count, 5, "\(name): a flash and a beep each second: \(sync.flashes) \(sync.beeps)")
            let beforeTheEnd = { (flash: Double) in flash < end - allowed }
            XCTAssertEqual(sync.pairs.filter { beforeTheEnd($0.flash) }.count, sync.flashes.filter(beforeTheEnd).count,
                           "\(name): every flash before the file's end has its beep (end \(end) s): \(sync.flashes) \(sync.beeps)")
            XCTAssertEqual(sync.frameDuration, 1.0 / 30, accuracy: 0.002)
            for pair in sync.pairs {
                XCTAssertEqual(pair.offset, 0, accuracy: allowed, String(format: "%@: beep %.4f s, flash %.4f s", name, pair.beep, pair.flash))
            }
            print(String(format: "sync: %@: %d pairs, worst %+.1f ms", name, sync.pairs.count, sync.worst * 1000))
        }
    }
}
