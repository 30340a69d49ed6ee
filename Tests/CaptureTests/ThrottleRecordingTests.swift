@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import GStreamer
import PipcamTestSupport
import XCTest
import Locking

/// Throttle rungs applied to a running recording: live, in the same file, which stays whole.
final class ThrottleRecordingTests: XCTestCase {
    /// Waits until the session has recorded `seconds` (polling its clock, with a deadline).
    private func waitUntil(_ session: CaptureSession, recorded seconds: Double) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while (session.liveStatus()?.elapsed.seconds ?? 0) < seconds {
            guard ContinuousClock.now < deadline else { throw ProbeError("the recording did not reach \(seconds) s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func testARungLowersCameraModesAndThePictureRateLiveAndRestoringGivesThemBack() async throws {
        let file = try Paths.scratch("throttle-live") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, microphones: [Fixtures.voice])
        configuration.throttlePolicy.isEnabled = false
        let modes = Locked<[[String]]>([])
        let composed = Locked(0)
        let summary = try await record(configuration, seconds: 5) { session in
            func note() { modes.withValue { $0.append((session.runningPlan?.cameraModes ?? [:]).sorted { $0.key < $1.key }.map { $0.value.description }) } }
            note()
            try await self.waitUntil(session, recorded: 1.5)
            let running = try XCTUnwrap(session.locked { session.graph })
            _ = try running.pipeline.element(named: "picture")?.staticPad("src").addBufferProbe { _ in
                composed.withValue { $0 += 1 }
                return .pass
            }
            try await ThrottleStep.apply(ThrottleSettings(insetScale: 0.5, mainScale: 0.75, frameRate: 15), to: running, in: session)
            note()
            try await self.waitUntil(session, recorded: 3.5)
            try await ThrottleStep.apply(ThrottleSettings(frameRate: 30), to: running, in: session)
            note()
        }
        XCTAssertEqual(modes.value, [
            ["1280x720 @ 30 fps", "384x216 @ 30 fps"],
            ["960x540 @ 15 fps", "192x108 @ 15 fps"],
            ["1280x720 @ 30 fps", "384x216 @ 30 fps"],
        ], "front is the main camera, side the inset")
        XCTAssertNil(summary.problem)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        let duration = try XCTUnwrap(try MediaProbe(path: file).duration)
        XCTAssertEqual(duration, 5, accuracy: 0.1, "one file, the whole recording")
        // 2 s at 15 fps in the middle: about 30 pictures fewer than 150, and none lost otherwise.
        let frames = try MediaProbe.videoFrameCount(path: file)
        XCTAssertGreaterThan(frames, 110)
        XCTAssertLessThan(frames, 130)
        XCTAssertEqual(summary.droppedPictures, 0)
        // From 1.5 s on, the compositor composed only the pictures the file keeps: at 15 fps it skips the
        // others instead of composing 30 a second and dropping half.
        XCTAssertLessThan(composed.value, Int(3.5 * 30) - 20, "\(composed.value) composed in 3.5 s")
        // The picture keeps its size while the main camera is captured smaller: the compositor scales it.
        let frame = try DecodedFrame(path: file, at: 2.5, width: 1280, height: 720)
        XCTAssertTrue(TestColors.isBlueBar(frame.pixel(1220, 200)), "bars fill the picture: \(frame.pixel(1220, 200))")
    }

    /// A camera with a track of its own keeps its mode under a rung (the track would have to renegotiate);
    /// the picture's lower rate still applies and the recording goes on.
    func testARungOnIsolatedTracksLowersTheRateAndKeepsTheCameras() async throws {
        let file = try Paths.scratch("throttle-isolated") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, microphones: [])
        configuration.movieFile?.isolatedCameraTracks = true
        configuration.throttlePolicy.isEnabled = false
        let modes = Locked<[String]>([])
        let summary = try await record(configuration, seconds: 4) { session in
            try await self.waitUntil(session, recorded: 1)
            let running = try XCTUnwrap(session.locked { session.graph })
            try await ThrottleStep.apply(ThrottleSettings(insetScale: 0.5, mainScale: 0.75, frameRate: 15), to: running, in: session)
            modes.withValue { $0 = (session.runningPlan?.cameraModes ?? [:]).sorted { $0.key < $1.key }.map { $0.value.description } }
        }
        XCTAssertEqual(modes.value, ["1280x720 @ 30 fps", "1280x720 @ 30 fps"], "the tracks' cameras as configured")
        XCTAssertNil(summary.problem)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        let pictures = try MediaProbe.videoFrameCount(path: file)
        XCTAssertGreaterThan(pictures, 60)
        XCTAssertLessThan(pictures, 90, "3 s of the 4 at 15 fps")
    }

    /// Pictures that stop well before the end (here one kept each 5 s from 1 s on) leave the file's sound
    /// running on: the summary gives the file's whole length, to its sound's end, not its last picture's.
    func testTheSummaryGivesTheFilesLengthWhenItsSoundOutlastsItsPictures() async throws {
        let file = try Paths.scratch("throttle-sound-outlasts") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, microphones: [Fixtures.voice])
        configuration.throttlePolicy.isEnabled = false
        let summary = try await record(configuration, seconds: 3) { session in
            try await self.waitUntil(session, recorded: 1)
            try XCTUnwrap(session.locked { session.graph }).limitPictureRate(0.2)
        }
        XCTAssertNil(summary.problem)
        let probe = try MediaProbe(path: file)
        let end = (probe.startTime ?? 0) + (try XCTUnwrap(probe.duration))
        let lastPicture = try XCTUnwrap(try MediaProbe.videoFrameTimes(path: file).last)
        XCTAssertLessThan(lastPicture, 2.5, "the pictures stopped early")
        XCTAssertEqual(end, 3, accuracy: 0.05, "the sound runs to the end")
        XCTAssertEqual(summary.duration.seconds, end, accuracy: 0.03, "the summary's length is the file's")
    }
}
