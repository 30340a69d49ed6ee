import CaptureGraph
import CaptureModel
import PipcamTestSupport
@testable import pipcam
import XCTest

/// The web page's live picture in the graph: a preview without a window, made only while watched, and
/// the microphones it meters.
final class PreviewPicturesPlanTests: XCTestCase {
    private func plan(watched: Bool, movie: Bool = false) throws -> (GraphPlan, SessionConfiguration) {
        var configuration = Fixtures.configuration(path: "/nonexistent/never.mkv")
        if !movie, let id = configuration.movieFile?.id { configuration.removeOutput(id: id) }
        configuration.attachPreviewPictures()
        configuration.previewOutput?.isWatched = watched
        return (try configuration.graphPlan(), configuration)
    }

    private func drop(_ plan: GraphPlan, _ name: String) -> Bool? {
        guard let value = plan.node(name)?.properties.first(where: { $0.0 == "drop" })?.1, case .bool(let drops) = value else { return nil }
        return drops
    }

    func testUnwatchedThePicturesAndTheCamerasPreviewBranchesAreClosed() throws {
        let (closed, configuration) = try plan(watched: false)
        let (open, _) = try plan(watched: true)
        let previewValves = closed.nodes.map(\.name).filter { $0.hasSuffix("-preview-valve") }
        XCTAssertEqual(previewValves.count, 2, "one per camera")
        for name in previewValves + ["preview-pictures-valve"] {
            XCTAssertEqual(drop(closed, name), true, name)
            XCTAssertEqual(drop(open, name), false, name)
        }
        XCTAssertEqual(closed.structureKey, open.structureKey, "watching starts and stops in place, without a new graph")
        XCTAssertNil(configuration.previewOutput?.sink, "no window")
        XCTAssertFalse(configuration.connections.contains { $0.outputID == configuration.previewOutput?.id && $0.isVideoMirrored },
                       "the page shows the cameras as recorded")
    }

    func testThePicturesAreJPEGAtMost640x360AndTenASecond() throws {
        let (plan, _) = try plan(watched: true)
        XCTAssertEqual(plan.node("preview-pictures-jpeg")?.factory, .jpegenc)
        XCTAssertEqual(plan.node("preview-pictures-sink")?.factory, .appsink)
        let caps = try XCTUnwrap(plan.node("preview-caps")?.properties.first { $0.0 == "caps" }.map { "\($0.1)" })
        XCTAssertTrue(caps.contains("width=(int)640") && caps.contains("height=(int)360") && caps.contains("framerate=(fraction)10/1"), caps)
        XCTAssertEqual(PreviewPictures.size(fitting: 1280, 720), PixelSize(width: 640, height: 360))
        XCTAssertEqual(PreviewPictures.size(fitting: 640, 480), PixelSize(width: 480, height: 360))
        XCTAssertEqual(PreviewPictures.size(fitting: 320, 180), PixelSize(width: 320, height: 180), "never larger")
    }

    func testMicrophonesAreMeteredBetweenRecordingsAndWhileRecording() throws {
        for movie in [false, true] {
            let (plan, _) = try plan(watched: false, movie: movie)
            // And one before each microphone's stages, for clipping at its source.
            XCTAssertEqual(plan.nodes.filter { $0.factory == .level && !$0.name.hasSuffix("-input-level") }.count, 2, "a meter per microphone (recording: \(movie))")
            XCTAssertEqual(plan.nodes.filter { $0.factory == .level }.count, 4)
        }
    }

    func testCheckCountsTheLivePictureAsWatched() throws {
        let budget = PixelBudget(generate: 1e9, decode: 1e9, composite: 1e9, encode: 1e8, cores: 2)
        let (_, configuration) = try plan(watched: false, movie: true)
        let cost = try configuration.hardwareCost(buses: [:], budget: budget)
        var without = configuration
        without.removeOutput(id: configuration.previewOutput!.id)
        let plain = try without.hardwareCost(buses: [:], budget: budget)
        for kind in [HardwareCost.Stage.Kind.composite, .encode] {
            let stage = try XCTUnwrap(cost.stages.first { $0.kind == kind })
            XCTAssertTrue(stage.subjects.contains("live view 640x360 @ 10"), "\(kind): \(stage.subjects)")
            let before = try XCTUnwrap(plain.stages.first { $0.kind == kind })
            XCTAssertEqual(stage.pixelRate - before.pixelRate, 640 * 360 * 10, accuracy: 1)
        }
    }

    func testServeAndCameraControlCommandsAreRead() throws {
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"record"}"#), .record)
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"controls"}"#), .controls(camera: nil))
        XCTAssertEqual(try ControlCommand(jsonLine: #"{"command":"controls","camera":"front"}"#), .controls(camera: "front"))
    }
}
