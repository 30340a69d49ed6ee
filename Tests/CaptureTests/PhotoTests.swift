@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
@testable import LinuxIO
import Foundation
import GStreamer
import PipcamTestSupport
import XCTest
import Locking

/// Photos taken from running sessions: files read back with ffprobe and ffmpeg, the recording checked
/// for every frame.
final class PhotoTests: XCTestCase {
    private func photoConfiguration(_ file: String, live: Bool = false) -> SessionConfiguration {
        var configuration = Fixtures.configuration(path: file, microphones: [])
        configuration.attachPhotoOutput(PhotoOutput(isLivePhotoCaptureEnabled: live))
        return configuration
    }

    private func size(_ path: String) throws -> [Int] {
        let stream = try XCTUnwrap(try MediaProbe(path: path).videoStreams.first, path)
        return [stream.width ?? 0, stream.height ?? 0]
    }

    func testAPhotoDuringARecordingHasEveryStillAtFullSizeAndTheRecordingEveryFrame() async throws {
        let folder = try Paths.scratch("photo-during")
        let events = Locked<[String]>([])
        let taken = Locked<PhotoCaptureResult?>(nil)
        _ = try await record(photoConfiguration("\(folder)/out.mkv"), seconds: 3) { session in
            let result = try await session.capturePhoto(PhotoSettings(directory: folder)) { event in
                switch event {
                case .willBeginCapture: events.withValue { $0.append("begin") }
                case .willCapturePhoto: events.withValue { $0.append("capture") }
                case .didFinishProcessingPhoto(let still): events.withValue { $0.append(still.source) }
                case .didFinishCapture: events.withValue { $0.append("finish") }
                }
            }
            taken.withValue { $0 = result }
        }
        XCTAssertEqual(events.value, ["begin", "capture", "front", "side", "composite", "finish"])
        let result = try XCTUnwrap(taken.value)
        XCTAssertEqual(result.stills.map(\.source), ["front", "side", "composite"])
        for still in result.stills {
            XCTAssertEqual(try size(still.file), [1280, 720], "\(still.source) at full size, the inset camera too")
            XCTAssertEqual(try size(still.thumbnail), [160, 90], "\(still.source)'s thumbnail")
        }
        // The side camera's still is its own picture (blue all over), not the inset of the composite.
        let side = try DecodedFrame(path: result.stills[1].file, at: 0, width: 1280, height: 720)
        XCTAssertGreaterThan(side.fraction(x: 100, y: 100, width: 1000, height: 500, where: TestColors.isInsetBlue), 0.9)
        let composite = try DecodedFrame(path: result.stills[2].file, at: 0, width: 1280, height: 720)
        XCTAssertGreaterThan(composite.fraction(x: 870, y: 500, width: 360, height: 170, where: TestColors.isInsetBlue), 0.8)
        XCTAssertTrue(TestColors.isWhiteBar(composite.pixel(60, 200)))

        let text = try String(contentsOfFile: result.sidecar, encoding: .utf8)
        XCTAssertTrue(text.contains(#""file": "\#(result.stills[0].file)""#), "paths as written: \(text)")
        let sidecar = try XCTUnwrap(try StrictJSON.parse(text) as? [String: Any])
        XCTAssertEqual(sidecar["id"] as? String, result.id)
        let stills = try XCTUnwrap(sidecar["stills"] as? [[String: Any]])
        XCTAssertEqual(stills.compactMap { $0["source"] as? String }, ["front", "side", "composite"])
        XCTAssertEqual((stills[0]["controls"] as? [String: String])?["pattern"], "smpte")

        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: "\(folder)/out.mkv")), 90, accuracy: 1, "no frame lost to the photo")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/out.mkv"), "")
    }

    func testSequentialPhotosTakeTheBackCameraFirst() async throws {
        let folder = try Paths.scratch("photo-sequential")
        var configuration = photoConfiguration("\(folder)/out.mkv")
        configuration.inputs[1] = DeviceInput(device: .testPatternCamera(id: "side", pattern: "ball", position: .back))
        let taken = Locked<PhotoCaptureResult?>(nil)
        _ = try await record(configuration, seconds: 2) { session in
            var settings = PhotoSettings(directory: folder)
            settings.timing = .sequential
            settings.includesComposite = false
            settings.format = .png
            let result = try await session.capturePhoto(settings)
            taken.withValue { $0 = result }
        }
        let result = try XCTUnwrap(taken.value)
        XCTAssertEqual(result.stills.map(\.source), ["side", "front"], "back camera first")
        XCTAssertLessThan(result.stills[0].time, result.stills[1].time)
        XCTAssertTrue(result.stills.allSatisfy { $0.file.hasSuffix(".png") })
        XCTAssertEqual(try MediaProbe(path: result.stills[0].file).videoStreams.first?.codecName, "png")
    }

    func testALivePhotoIsAClipAroundTheShutterCutFromTheRecordedPicture() async throws {
        let folder = try Paths.scratch("photo-live")
        let taken = Locked<PhotoCaptureResult?>(nil)
        _ = try await record(photoConfiguration("\(folder)/out.mkv", live: true), seconds: 5) { session in
            var settings = PhotoSettings(directory: folder)
            settings.livePhoto = true
            let result = try await session.capturePhoto(settings)
            taken.withValue { $0 = result }
        }
        let result = try XCTUnwrap(taken.value)
        let clip = try XCTUnwrap(result.liveClip)
        let probe = try MediaProbe(path: clip)
        XCTAssertEqual(probe.videoStreams.first?.codecName, "h264")
        XCTAssertEqual(probe.videoStreams.first?.width, 1280)
        // 1.5 s either side of the shutter, starting at the key frame before (one a second).
        let duration = try XCTUnwrap(probe.duration)
        XCTAssertGreaterThanOrEqual(duration, 2.9)
        XCTAssertLessThanOrEqual(duration, 4.1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: clip), "")
        XCTAssertGreaterThan(result.stills.first?.time ?? 0, 1.4, "the shutter waited for 1.5 s of recording")
    }

    func testBracketingACameraWithoutControlsSaysSo() async throws {
        let folder = try Paths.scratch("photo-bracket")
        let failure = Locked<String?>(nil)
        _ = try await record(photoConfiguration("\(folder)/out.mkv"), seconds: 1) { session in
            var settings = PhotoSettings(directory: folder)
            settings.bracket = .init(count: 3)
            do { try await session.capturePhoto(settings) } catch { failure.withValue { $0 = "\(error)" } }
        }
        XCTAssertTrue(failure.value?.contains("no camera of the session has a control to bracket") == true, failure.value ?? "no error")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["out.mkv"], "nothing half-written")
    }

    func testBracketStepsSpreadAcrossTheMiddleOfTheRange() {
        let brightness = CameraControls.Range(minimum: 0, maximum: 255, step: 1, defaultValue: 128)
        XCTAssertEqual(PhotoCapture.steps(brightness, count: 3), [51, 128, 204])
        let coarse = CameraControls.Range(minimum: -10, maximum: 10, step: 5, defaultValue: 0)
        XCTAssertEqual(PhotoCapture.steps(coarse, count: 2), [-5, 5])
    }

    func testAPhotoNeedsARunningSession() async throws {
        let session = try CaptureSession(configuration: photoConfiguration("/tmp/never.mkv"))
        do {
            try await session.capturePhoto(PhotoSettings(directory: "/tmp"))
            XCTFail("took a photo from a stopped session")
        } catch CaptureError.photo(let problem) {
            XCTAssertEqual(problem, .sessionNotRunning)
        }
    }
}
