import Capture
@testable import pipcam
import PipcamTestSupport
import XCTest

/// The progress line: rates from the counts between two snapshots, and how often it is written.
final class StatusLineTests: XCTestCase {
    private func status(_ seconds: Int, front: Int, side: Int, dropped: Int = 0) -> LiveStatus {
        LiveStatus(elapsed: .seconds(seconds), frames: [("front", front), ("side", side)], dropped: dropped, fileSize: 3 << 20)
    }

    func testOffATerminalALineEveryFiveSecondsWithTheRatesSinceTheLastSnapshot() {
        var line = StatusLine()
        line.isTerminal = false
        XCTAssertEqual(line.text(for: status(5, front: 150, side: 75)), "recording 00:05.0  front 30 fps, side 15 fps  dropped 0  3.0 MiB\n")
        XCTAssertNil(line.text(for: status(6, front: 180, side: 90)), "a second later: nothing")
        XCTAssertEqual(line.text(for: status(10, front: 280, side: 150, dropped: 2), note: "pressure serious"),
                       "recording 00:10.0  front 25 fps, side 15 fps  dropped 2  3.0 MiB  pressure serious\n")
    }

    func testOnATerminalTheLineIsRewrittenEachTime() {
        var line = StatusLine()
        line.isTerminal = true
        XCTAssertEqual(line.text(for: status(61, front: 30, side: 30)), "\r\u{1B}[K01:01.0  front 0 fps, side 0 fps  dropped 0  3.0 MiB")
        XCTAssertNotNil(line.text(for: status(62, front: 60, side: 60)))
    }

    /// Sound a microphone lost on its way into the file is on the line, by microphone, and in the summary.
    func testSoundLostIsOnTheLineAndInTheSummary() {
        var snapshot = status(5, front: 150, side: 75)
        snapshot.soundLost = ["voice": .milliseconds(1260), "room": .milliseconds(40)]
        var line = StatusLine()
        line.isTerminal = false
        XCTAssertEqual(line.text(for: snapshot), "recording 00:05.0  front 30 fps, side 15 fps  dropped 0  sound lost: room 0.04 s, voice 1.26 s  3.0 MiB\n")

        var summary = RecordingSummary(path: "x.mkv", duration: .seconds(5), cameras: [], droppedPictures: 0, fileSize: nil)
        XCTAssertFalse(summary.description.contains("lost"), summary.description)
        summary.soundLost = snapshot.soundLost
        XCTAssertTrue(summary.description.contains("""
              room: 0.04 s of its sound lost: the machine could not keep up
              voice: 1.26 s of its sound lost: the machine could not keep up
            """), summary.description)
        // As the device tests read it back.
        XCTAssertEqual(SummaryText.soundLost(of: "voice", in: summary.description), 1.26)
        XCTAssertEqual(SummaryText.soundLost(of: "front", in: summary.description), 0)
    }

    /// Paused: the file's time stands still, and the line says PAUSED with how long, and the markers set.
    func testAPausedRecordingSaysSoWithItsLength() {
        var snapshot = status(65, front: 150, side: 75)
        snapshot.recorded = .seconds(50)
        snapshot.paused = .milliseconds(15_500)
        snapshot.markers = 2
        var line = StatusLine()
        line.isTerminal = true
        XCTAssertEqual(line.text(for: snapshot), "\r\u{1B}[K00:50.0  PAUSED 00:15.5  2 markers  front 2 fps, side 1 fps  dropped 0  3.0 MiB")
    }

    /// Each microphone's meter, in the order of their names, with what needs looking at: a bar on a
    /// terminal and over the preview, numbers in a log.
    func testTheMetersAreOnTheLineAndOverThePreviewWithTheirWarnings() {
        var snapshot = status(5, front: 150, side: 75)
        snapshot.soundLevels = ["voice": SoundLevel(peak: -12, rms: -30), "room": SoundLevel(peak: 0, rms: -2)]
        snapshot.soundAlerts = ["room": "clipping"]
        var line = StatusLine()
        line.isTerminal = true
        XCTAssertEqual(line.text(for: snapshot), "\r\u{1B}[K00:05.0  front 30 fps, side 15 fps  dropped 0  3.0 MiB  room [##########] 0 CLIPPING  voice [#####..|..] -12")
        line = StatusLine()
        line.isTerminal = false
        XCTAssertEqual(line.text(for: snapshot), "recording 00:05.0  front 30 fps, side 15 fps  dropped 0  3.0 MiB  room peak 0 rms -2 dBFS CLIPPING  voice peak -12 rms -30 dBFS\n")
        line = StatusLine()
        line.isTerminal = true
        XCTAssertEqual(line.text(for: snapshot, columns: 40), "\r\u{1B}[K00:05.0  front 30 fps, side 15 fps  dro", "cut to fit a terminal 40 wide")
        var overlay = PreviewOverlay(recording: false)
        XCTAssertEqual(overlay.text(for: snapshot, pressure: nil), "room [##########] 0 CLIPPING  voice [#####..|..] -12")
    }
}
