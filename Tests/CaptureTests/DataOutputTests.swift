@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import GStreamer
import PipcamTestSupport
import XCTest
import Locking

/// Video and audio data outputs on real recordings: what they deliver, in what order, and that a slow
/// consumer never costs the recording a frame.
final class DataOutputTests: XCTestCase {
    /// Adds a video data output fed by the camera at `cameraIndex`.
    private func tap(_ configuration: inout SessionConfiguration, _ output: VideoDataOutput, cameraIndex: Int = 0) {
        configuration.videoDataOutputs.append(output)
        configuration.connections.append(Connection(from: configuration.inputs[cameraIndex].port, to: output.id))
    }

    func testFramesArriveInTheAskedFormatAndSizeWithStridesFromTheirVideoInfo() async throws {
        let file = try Paths.scratch("tap-formats") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, microphones: [])
        let bgra = VideoDataOutput(id: "bgra", pixelFormat: .bgra)
        let gray = VideoDataOutput(id: "gray", pixelFormat: .gray8, size: PixelSize(width: 160, height: 90))
        let nv12 = VideoDataOutput(id: "nv12", pixelFormat: .nv12, size: PixelSize(width: 320, height: 180))
        tap(&configuration, bgra)
        tap(&configuration, gray, cameraIndex: 1)
        tap(&configuration, nv12, cameraIndex: 1)
        let firstFrames = Task { () -> [VideoDataFrame?] in
            async let a = bgra.frames().first { _ in true }
            async let b = gray.frames().first { _ in true }
            async let c = nv12.frames().first { _ in true }
            return await [a, b, c]
        }
        _ = try await record(configuration, seconds: 1)
        let frames = await firstFrames.value.compactMap { $0 }
        XCTAssertEqual(frames.count, 3, "each output delivered a frame")
        guard frames.count == 3 else { return }
        XCTAssertEqual(frames.map(\.pixelFormat), ["BGRA", "GRAY8", "NV12"])
        XCTAssertEqual(frames.map { "\($0.width)x\($0.height)" }, ["1280x720", "160x90", "320x180"])
        XCTAssertEqual(frames.map(\.cameraID), ["front", "side", "side"])
        try frames[0].withPlanes { planes in
            XCTAssertEqual(planes.count, 1)
            XCTAssertEqual(planes[0].stride, 1280 * 4)
            XCTAssertGreaterThanOrEqual(planes[0].bytes.count, 1280 * 4 * 720)
        }
        try frames[2].withPlanes { planes in
            XCTAssertEqual(planes.map(\.height), [180, 90], "NV12: luma plane, then half-height chroma")
            XCTAssertEqual(planes.map(\.stride), [320, 320], "NV12 at 320 wide: both planes' rows are 320 bytes")
        }
        // The bars' top-left is white in BGRA; copied planes outlive the mapping.
        let copied = try frames[0].copyPlanes()
        XCTAssertGreaterThan(copied[0][0], 180)
        XCTAssertGreaterThan(copied[0][1], 180)
    }

    func testSequenceNumbersAndTimesIncreasePerCamera() async throws {
        let file = try Paths.scratch("tap-order") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, microphones: [])
        let outputs = [VideoDataOutput(id: "a", pixelFormat: .gray8, size: PixelSize(width: 64, height: 36)),
                       VideoDataOutput(id: "b", pixelFormat: .gray8, size: PixelSize(width: 64, height: 36))]
        let seen = Locked<[String: [(Int, Duration)]]>([:])
        let queue = DispatchQueue(label: "frames")
        for (index, output) in outputs.enumerated() {
            tap(&configuration, output, cameraIndex: index)
            output.setDelegate(queue: queue) { frame in
                seen.withValue { $0[frame.cameraID, default: []].append((frame.sequenceNumber, frame.presentationTime)) }
            }
        }
        _ = try await record(configuration, seconds: 2)
        queue.sync {}
        let byCamera = seen.value
        XCTAssertEqual(Set(byCamera.keys), ["front", "side"])
        for (camera, frames) in byCamera {
            XCTAssertGreaterThan(frames.count, 40, camera)
            for (previous, next) in zip(frames, frames.dropFirst()) {
                XCTAssertGreaterThan(next.0, previous.0, "\(camera): sequence numbers increase")
                XCTAssertGreaterThan(next.1, previous.1, "\(camera): times increase")
            }
        }
    }

    func testASlowConsumerLosesTapFramesButTheRecordingKeepsEveryFrame() async throws {
        let file = try Paths.scratch("tap-slow") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, microphones: [])
        let output = VideoDataOutput(id: "slow", pixelFormat: .bgra)
        tap(&configuration, output)
        let delivered = Locked<[Int]>([])
        output.setDelegate(queue: DispatchQueue(label: "slow consumer")) { frame in
            // A consumer far slower than the camera: 10 frames a second of 30.
            Thread.sleep(forTimeInterval: 0.1)
            delivered.withValue { $0.append(frame.sequenceNumber) }
        }
        let summary = try await record(configuration, seconds: 3)
        let numbers = delivered.value
        XCTAssertGreaterThan(numbers.count, 10, "the consumer got frames")
        XCTAssertLessThan(numbers.count, 50, "late frames were discarded, not queued")
        XCTAssertGreaterThan(output.delivery.discardedCount, 30)
        XCTAssertTrue(zip(numbers, numbers.dropFirst()).contains { $1 - $0 > 1 }, "gaps in the sequence show the discarded frames")
        XCTAssertEqual(summary.droppedPictures, 0)
        let frames = try MediaProbe.videoFrameCount(path: file)
        XCTAssertEqual(Double(frames), 90, accuracy: 1, "3 s at 30 fps: every recorded frame is there")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }

    func testAudioDataOutputDeliversTheToneInTheAskedFormat() async throws {
        let file = try Paths.scratch("tap-audio") + "/out.mkv"
        var configuration = Fixtures.configuration(path: file, cameras: [Fixtures.front], microphones: [Fixtures.voice])
        let output = AudioDataOutput(id: "level", format: .float32, channels: 2)
        configuration.audioDataOutputs.append(output)
        configuration.connections.append(Connection(from: configuration.inputs[1].port, to: output.id))
        let collected = Task { () -> [AudioDataBuffer] in
            var buffers: [AudioDataBuffer] = []
            for await buffer in output.buffers() { buffers.append(buffer) }
            return buffers
        }
        let summary = try await record(configuration, seconds: 2)
        let buffers = await collected.value
        XCTAssertEqual(summary.soundLost, [:], "a recording that keeps up loses no sound")
        XCTAssertGreaterThan(buffers.count, 10)
        XCTAssertEqual(Set(buffers.map(\.microphoneID)), ["voice"])
        XCTAssertEqual(Set(buffers.map(\.channels)), [2])
        XCTAssertEqual(Set(buffers.map(\.sampleRate)), [48000])
        XCTAssertTrue(zip(buffers, buffers.dropFirst()).allSatisfy { $1.presentationTime > $0.presentationTime })
        // A sine at 0.4 of full scale has an RMS of 0.4/√2 ≈ 0.283.
        let samples = try buffers[buffers.count / 2].floatSamples()
        let rms = (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
        XCTAssertEqual(rms, 0.283, accuracy: 0.03)
    }
}
