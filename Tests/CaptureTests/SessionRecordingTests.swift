@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import GStreamer
import PipcamTestSupport
import XCTest
import Locking

/// Sessions recording real files from synthetic devices, checked with ffprobe and decoded pixels.
final class SessionRecordingTests: XCTestCase {
    func testMirroredMainCameraIsFlippedLeftToRight() async throws {
        let file = try Paths.scratch("mirror") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, cameras: [Fixtures.front], microphones: [])
        configuration.connections[0].isVideoMirrored = true
        _ = try await record(configuration, seconds: 2)
        let frame = try DecodedFrame(path: file, at: 1.2, width: 1280, height: 720)
        // SMPTE bars run white … blue from left to right; mirrored, blue is on the left.
        XCTAssertTrue(TestColors.isBlueBar(frame.pixel(60, 200)), "left: \(frame.pixel(60, 200))")
        XCTAssertTrue(TestColors.isWhiteBar(frame.pixel(1220, 200)), "right: \(frame.pixel(1220, 200))")
    }

    func testUnmirroredBarsForComparison() async throws {
        let file = try Paths.scratch("plain") + "/out.mkv"
        _ = try await record(Fixtures.configuration(path: file, cameras: [Fixtures.front], microphones: []), seconds: 2)
        let frame = try DecodedFrame(path: file, at: 1.2, width: 1280, height: 720)
        XCTAssertTrue(TestColors.isWhiteBar(frame.pixel(60, 200)), "left: \(frame.pixel(60, 200))")
        XCTAssertTrue(TestColors.isBlueBar(frame.pixel(1220, 200)), "right: \(frame.pixel(1220, 200))")
    }

    func testQuarterTurnRotationTurnsBarsIntoStripes() async throws {
        let file = try Paths.scratch("rotate") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, cameras: [Fixtures.front], microphones: [])
        configuration.connections[0].rotation = .clockwise90
        let summary = try await record(configuration, seconds: 2)
        XCTAssertEqual(summary.cameras.first?.mode, "720x1280 @ 30 fps", "captured upright for the turned picture")
        let frame = try DecodedFrame(path: file, at: 1.2, width: 1280, height: 720)
        // The upright capture, turned clockwise, fills the picture: the left bar (white) is on top, the
        // blue bar at the bottom, and the pattern's lower band (white, then purple) is at the left.
        XCTAssertTrue(TestColors.isWhiteBar(frame.pixel(640, 30)), "top: \(frame.pixel(640, 30))")
        XCTAssertTrue(TestColors.isBlueBar(frame.pixel(640, 690)), "bottom: \(frame.pixel(640, 690))")
        XCTAssertTrue(TestColors.isWhiteBar(frame.pixel(160, 180)), "left: \(frame.pixel(160, 180))")
    }

    func testFailedCommitLeavesTheSessionRecording() async throws {
        let file = try Paths.scratch("commit") + "/out.mkv"
        let session = try CaptureSession(configuration: Fixtures.configuration(path: file))
        try await session.startRunning()
        let planBefore = try XCTUnwrap(session.runningPlan).structureKey

        session.beginConfiguration()
        try await session.update { configuration in
            configuration.inputs[0].activeFormat = VideoFormat(pixelFormat: "I420", width: 100_000, height: 100_000, frameRates: [30])
        }
        do {
            try await session.commitConfiguration()
            XCTFail("an impossible format must not commit")
        } catch CaptureError.invalidConfiguration(let reason) {
            XCTAssertTrue(reason.contains("cannot deliver 100000x100000"), reason)
        }
        XCTAssertEqual(session.state, .running)
        XCTAssertEqual(session.runningPlan?.structureKey, planBefore, "the running graph is untouched")
        XCTAssertNil(session.configuration.inputs[0].activeFormat, "the committed configuration is untouched")

        // Still recording: frames keep arriving after the failed commit.
        let before = session.liveStatus()?.frames.first?.count ?? 0
        let deadline = Date().addingTimeInterval(10)
        while (session.liveStatus()?.frames.first?.count ?? 0) < before + 30 && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let summary = try await session.stopRunning()
        XCTAssertGreaterThanOrEqual(summary.cameras.first?.frames ?? 0, before + 30)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
        XCTAssertGreaterThan(try MediaProbe.videoFrameCount(path: file), 30)
    }

    func testStructuralCommitWhileRecordingContinuesInANewFile() async throws {
        let folder = try Paths.scratch("restructure")
        let session = try CaptureSession(configuration: Fixtures.configuration(path: "\(folder)/talk.mkv", microphones: [Fixtures.voice]))
        try await session.startRunning()
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(1000) { try await Task.sleep(for: .milliseconds(20)) }
        session.beginConfiguration()
        try await session.update { $0.movieFile?.isolatedCameraTracks = true }
        try await session.commitConfiguration()
        XCTAssertEqual(session.state, .running)
        XCTAssertEqual(session.configuration.movieFile?.path, "\(folder)/talk-2.mkv", "the first file is finished, recording goes on in the next")
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(1000) { try await Task.sleep(for: .milliseconds(20)) }
        try await session.stopRunning()

        let first = try MediaProbe(path: "\(folder)/talk.mkv"), second = try MediaProbe(path: "\(folder)/talk-2.mkv")
        XCTAssertEqual(first.videoStreams.count, 1)
        XCTAssertEqual(second.videoStreams.count, 3, "the picture and both isolated cameras")
        XCTAssertGreaterThan(try XCTUnwrap(first.duration), 0.9)
        XCTAssertGreaterThan(try XCTUnwrap(second.duration), 0.9)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/talk.mkv"), "")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/talk-2.mkv"), "")
    }

    func testSwappingCamerasWhileRecordingMovesTheInset() async throws {
        let file = try Paths.scratch("swap") + "/out.mkv"
        let session = try CaptureSession(configuration: Fixtures.configuration(path: file, microphones: []))
        try await session.startRunning()
        // Swap once the picture has reached 1.5 s, then record 1.5 s more.
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(1500) { try await Task.sleep(for: .milliseconds(20)) }
        let planBefore = try XCTUnwrap(session.runningPlan).structureKey
        try await session.swapCameras()
        XCTAssertEqual(session.runningPlan?.structureKey, planBefore, "a swap changes pads, not the graph")
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(3000) { try await Task.sleep(for: .milliseconds(20)) }
        try await session.stopRunning()

        let before = try DecodedFrame(path: file, at: 0.8, width: 1280, height: 720)
        let after = try DecodedFrame(path: file, at: 2.6, width: 1280, height: 720)
        XCTAssertLessThan(before.fraction(x: 0, y: 100, width: 600, height: 300, where: TestColors.isInsetBlue), 0.05, "bars full frame before")
        XCTAssertGreaterThan(after.fraction(x: 0, y: 100, width: 600, height: 300, where: TestColors.isInsetBlue), 0.8, "ball camera full frame after")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    func testAudioFollowsTheMainCameraAcrossASwap() async throws {
        let file = try Paths.scratch("follow") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file)
        configuration.movieFile?.audioTracks = .followMainCamera
        let session = try CaptureSession(configuration: configuration)
        try await session.startRunning()
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(2000) { try await Task.sleep(for: .milliseconds(20)) }
        try await session.swapCameras()
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(4000) { try await Task.sleep(for: .milliseconds(20)) }
        try await session.stopRunning()
        XCTAssertEqual(try MediaProbe(path: file).audioStreams.count, 1, "one track that follows the picture")
        // First microphone goes with the first camera, second with the second.
        XCTAssertEqual(try ToneProbe.frequency(path: file, stream: 0, from: 0.7, length: 1), 440, accuracy: 20)
        XCTAssertEqual(try ToneProbe.frequency(path: file, stream: 0, from: 2.7, length: 1), 880, accuracy: 20)
    }

    func testIsolatedTracksAndMixOnlyAudio() async throws {
        let file = try Paths.scratch("isolated") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file)
        configuration.movieFile?.isolatedCameraTracks = true
        configuration.movieFile?.audioTracks = .mixed
        _ = try await record(configuration, seconds: 2)
        let probe = try MediaProbe(path: file)
        XCTAssertEqual(probe.videoStreams.map { [$0.width ?? 0, $0.height ?? 0] }, [[1280, 720], [1280, 720], [1280, 720]])
        XCTAssertEqual(probe.audioStreams.count, 1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    func testARecordedClipReplaysAsALiveCamera() async throws {
        let folder = try Paths.scratch("clip")
        // A clip of the ball camera alone, then that clip as the inset of a new recording.
        _ = try await record(Fixtures.configuration(path: "\(folder)/clip.mkv", cameras: [Fixtures.side], microphones: []), seconds: 3)
        let clip = CaptureDevice.fileCamera(id: "clip", path: "\(folder)/clip.mkv")
        let summary = try await record(Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [Fixtures.front, clip], microphones: []), seconds: 2)
        XCTAssertGreaterThan(summary.cameras.first { $0.inputID == "clip" }?.frames ?? 0, 30, "the clip plays at its own pace")
        let frame = try DecodedFrame(path: "\(folder)/out.mkv", at: 1.5, width: 1280, height: 720)
        XCTAssertGreaterThan(frame.fraction(x: 870, y: 500, width: 360, height: 170, where: TestColors.isInsetBlue), 0.7, "the clip is in the inset")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/out.mkv"), "")
    }

    func testClipsThatPlayOutEndTheRecordingPromptly() async throws {
        let folder = try Paths.scratch("played-out")
        _ = try await record(Fixtures.configuration(path: "\(folder)/clip.mkv", cameras: [Fixtures.side], microphones: []), seconds: 1)
        let clip = CaptureDevice.fileCamera(id: "clip", path: "\(folder)/clip.mkv")
        let session = try CaptureSession(configuration: Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [clip], microphones: []))
        try await session.startRunning()
        // No limit: the clip's end is the recording's, and the pipeline has drained by then.
        let stopped = try await waitForEvent(session, timeout: .seconds(10)) { if case .stopped = $0 { return true }; return false }
        guard case .stopped(let summary)? = stopped else { return XCTFail("the session did not stop when the clip ended") }
        XCTAssertNil(summary.problem)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/out.mkv"), "")
        // The picture starts with the clip's first frame, not with black composed before the clip arrived.
        let first = try DecodedFrame(path: "\(folder)/out.mkv", at: 0, width: 1280, height: 720)
        XCTAssertGreaterThan(first.fraction(x: 100, y: 200, width: 1000, height: 400, where: TestColors.isInsetBlue), 0.7)
    }

    func testFastReplayComposesClipsWithoutLosingAPicture() async throws {
        let folder = try Paths.scratch("fast-replay")
        _ = try await record(Fixtures.configuration(path: "\(folder)/clip.mkv", cameras: [Fixtures.side], microphones: []), seconds: 3)
        let clip = try MediaProbe(path: "\(folder)/clip.mkv")
        var configuration = Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [
            CaptureDevice.fileCamera(id: "a", path: "\(folder)/clip.mkv"), CaptureDevice.fileCamera(id: "b", path: "\(folder)/clip.mkv"),
        ], microphones: [])
        configuration.replay = .fast
        let summary = try await recordUntilTheClipsEnd(configuration)
        XCTAssertNil(summary.problem)
        XCTAssertEqual(summary.cameras.map(\.dropped), [0, 0])
        XCTAssertEqual(try XCTUnwrap(MediaProbe(path: "\(folder)/out.mkv").duration), try XCTUnwrap(clip.duration), accuracy: 0.05)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/out.mkv"), "")
    }

    /// Raw clips are mapped and their pictures pushed where they lie: the picture must be the clip's own,
    /// every one of them, from the first (an offset off by a line would shift or tear every picture).
    func testRawY4MClipsAreMappedAndKeepEveryPicture() async throws {
        let folder = try Paths.scratch("y4m-replay")
        // Moving bars at the picture's own size: a shifted, torn or misordered picture would not match.
        let clip = "\(folder)/clip.y4m"
        try makeY4MClip(at: clip, frames: 45, width: 1280, height: 720, pattern: ["pattern=smpte", "horizontal-speed=4"])
        var configuration = Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [
            CaptureDevice.fileCamera(id: "a", path: clip), CaptureDevice.fileCamera(id: "b", path: clip),
        ], microphones: [])
        configuration.replay = .fast
        let plan = try GraphBuilder.plan(for: configuration)
        XCTAssertEqual(plan.mappedClips.count, 2)
        XCTAssertEqual(plan.nodes.filter { [ElementFactory.y4mdec, .decodebin, .filesrc].contains($0.factory) }.map(\.name), [], "clips read, not mapped")
        let summary = try await recordUntilTheClipsEnd(configuration)
        XCTAssertNil(summary.problem)
        let out = "\(folder)/out.mkv"
        XCTAssertEqual(try MediaProbe.videoFrameCount(path: out), 45)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: out), "")
        // The main camera fills the picture outside the inset (bottom right): its top left is the clip's.
        let psnr = try XCTUnwrap(MediaProbe.psnr(path: out, reference: clip, width: 640, height: 360))
        XCTAssertGreaterThan(psnr, 30, "the recorded picture is not the clip's")
    }

    /// A clip whose rows GStreamer would pad (a width that is not a multiple of 8) cannot be used in
    /// place: it is read by y4mdec, which lays each picture out, and records just as well.
    func testRawY4MClipsOfOddSizesAreReadAndKeepEveryPicture() async throws {
        let folder = try Paths.scratch("y4m-odd")
        // Written by ffmpeg: GStreamer's y4menc pads the rows of such sizes, which YUV4MPEG2 does not.
        let clip = "\(folder)/clip.y4m"
        let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=644x362:rate=30",
                                    "-frames:v", "45", "-pix_fmt", "yuv420p", clip])
        XCTAssertEqual(made.status, 0, made.error)
        guard case .raw = Y4MClip.reading(ofFileAt: clip) else { return XCTFail("\(clip) should be read, not mapped") }
        var configuration = Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [CaptureDevice.fileCamera(id: "a", path: clip)], microphones: [])
        configuration.replay = .fast
        let plan = try GraphBuilder.plan(for: configuration)
        XCTAssertEqual(plan.mappedClips.count, 0)
        XCTAssertEqual(plan.nodes.filter { $0.factory == .y4mdec }.count, 1)
        let summary = try await recordUntilTheClipsEnd(configuration)
        XCTAssertNil(summary.problem)
        XCTAssertEqual(try MediaProbe.videoFrameCount(path: "\(folder)/out.mkv"), 45)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/out.mkv"), "")
    }

    func testRuntimeErrorNamesTheDeviceAndKeepsTheRecording() async throws {
        let folder = try Paths.scratch("broken")
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: "\(folder)/garbage.mkv"))
        let broken = CaptureDevice.fileCamera(id: "clip", path: "\(folder)/garbage.mkv")
        let session = try CaptureSession(configuration: Fixtures.configuration(path: "\(folder)/out.mkv", cameras: [Fixtures.front, broken], microphones: []))
        // The clip fails while the session starts or just after: either way the failure names it, and the
        // session reports it as an event with the failing element and GLib's error code.
        do {
            try await session.startRunning()
        } catch CaptureError.startFailed(let input, _, let cause) {
            XCTAssertEqual(input, "clip", cause)
        }
        let event = try await waitForEvent(session) { if case .runtimeError = $0 { return true }; return false }
        guard case .runtimeError(.streamFailed(let deviceID, let element, let code, let reason))? = event else { return XCTFail("no runtime error reported") }
        XCTAssertEqual(deviceID, "clip", reason)
        XCTAssertNotNil(element, "the failing element is kept")
        XCTAssertEqual(code?.domain.hasSuffix("-error-quark"), true, "GLib's domain is kept: \(String(describing: code))")
        XCTAssertFalse(reason.isEmpty)
    }

    /// The compositor composes in the colours of its inset; a main camera whose colours differ from the
    /// picture's would be converted whole, every frame.
    func testTheMainCameraReachesThePictureInItsOwnColours() async throws {
        let file = try Paths.scratch("colours") + "/out.mkv"
        let seen = Locked<(main: String?, picture: String?)>((nil, nil))
        _ = try await record(Fixtures.configuration(path: file), seconds: 1.5) { session in
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let compositor = session.locked { session.graph }?.pipeline.element(named: "picture")
                if let main = try compositor?.staticPad("sink_0").currentCaps?.structures.first,
                   let picture = try compositor?.staticPad("src").currentCaps?.structures.first {
                    seen.withValue { $0 = (main.string("colorimetry"), picture.string("colorimetry")) }
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        XCTAssertNotNil(seen.value.main, "the main camera states its colours")
        XCTAssertEqual(seen.value.main, seen.value.picture, "1280x720 main camera, 384x216 inset")
    }
}
