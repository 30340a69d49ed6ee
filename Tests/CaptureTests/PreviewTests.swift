@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import PipcamTestSupport
import XCTest

/// The preview's part of the graph: its own connections and compositor, changed live with the recording.
final class PreviewTests: XCTestCase {
    /// The fixture's cameras, the first facing front, recorded with a preview that needs no display.
    private func configuration(recording: Bool = true) -> SessionConfiguration {
        let front = CaptureDevice.testPatternCamera(id: "front", pattern: "smpte", label: "front", moving: false, position: .front)
        var configuration = Fixtures.configuration(path: "/tmp/unused.mkv", cameras: [front, Fixtures.side])
        configuration.attachPreviewOutput(PreviewOutput(sink: .fakesink))
        if !recording {
            configuration.connections.removeAll { $0.outputID == configuration.movieFile?.id }
            configuration.movieFile = nil
        }
        return configuration
    }

    private func direction(_ plan: GraphPlan, _ node: String) -> String? {
        guard case .string(let text)? = plan.node(node)?.properties.first(where: { $0.0 == "video-direction" })?.1 else { return nil }
        return text
    }

    func testTheFrontCameraIsMirroredInThePreviewOnly() throws {
        let plan = try configuration().graphPlan()
        XCTAssertEqual(direction(plan, "cam0-preview-flip"), "horiz", "the front camera, on screen")
        XCTAssertEqual(direction(plan, "cam0-movie-flip"), "identity", "the front camera, recorded")
        XCTAssertEqual(direction(plan, "cam1-preview-flip"), "identity", "the other camera")
        XCTAssertEqual(plan.previewSink.flatMap { plan.node($0.name)?.factory }, .fakesink)
        XCTAssertNotNil(plan.previewOverlay)
    }

    func testThePreviewTakesTheCapturedFramesAndCapturesNothingExtra() throws {
        let recorded = try configuration().graphPlan()
        XCTAssertEqual(recorded.cameraModes["side"].map { [$0.width, $0.height] }, [384, 216], "the inset as recorded")
        XCTAssertEqual(recorded.cameraModes["front"].map { [$0.width, $0.height] }, [1280, 720])
        // Previewing alone, each camera is captured at the size it is shown in the 640x360 window.
        let previewed = try configuration(recording: false).graphPlan()
        XCTAssertEqual(previewed.cameraModes["front"].map { [$0.width, $0.height] }, [640, 360])
        XCTAssertEqual(previewed.cameraModes["side"].map { [$0.width, $0.height] }, [192, 108])
        XCTAssertNil(previewed.mux)
    }

    func testSwapCornerLayoutAndSwitchesAreLiveInBothPictures() throws {
        let base = configuration()
        let before = try base.graphPlan()
        var changes: [(String, (inout SessionConfiguration) -> Void)] = [
            ("swap", { $0.layout.mainInputID = "side" }),
            ("corner", { $0.layout.corner = .topLeft }),
            ("layout", { $0.layout.kind = .sideBySide }),
        ]
        for input in ["side", "voice"] {
            changes.append(("\(input) off", { configuration in
                for index in configuration.connections.indices where configuration.connections[index].inputPorts[0].inputID == input {
                    configuration.connections[index].isEnabled = false
                }
            }))
        }
        for (name, change) in changes {
            var changed = base
            change(&changed)
            XCTAssertEqual(try changed.graphPlan().structureKey, before.structureKey, "\(name) is applied in place")
        }
        var swapped = base
        swapped.layout.mainInputID = "side"
        let plan = try swapped.graphPlan()
        let previewPads = plan.links.filter { $0.to == plan.previewCompositor }
        guard case .int(let width)? = previewPads.first(where: { $0.from == "cam1-preview-flip" })?.padProperties.first(where: { $0.0 == "width" })?.1 else {
            return XCTFail("no preview pad for the side camera")
        }
        XCTAssertEqual(width, 640, "the side camera fills the preview after a swap")
    }

    /// Two cameras at most, and each microphone once, for its meter (the web page's).
    func testAPreviewTakesTwoCamerasAtMostAndEachMicrophoneOnce() throws {
        var configuration = configuration()
        let front = configuration.inputs[0], voice = configuration.inputs[2]
        XCTAssertNotNil(configuration.reasonCannotAdd(Connection(from: front.port, to: "preview")), "already shows two cameras")
        XCTAssertNil(configuration.reasonCannotAdd(Connection(from: voice.port, to: "preview")), "a microphone, for its meter")
        configuration.connections.append(Connection(from: voice.port, to: "preview"))
        XCTAssertEqual(configuration.reasonCannotAdd(Connection(from: voice.port, to: "preview")), "voice (audio) is already connected to 'preview'")
        XCTAssertNoThrow(try configuration.validate())
    }

    func testWithoutADisplayThereIsNoSinkAndTheErrorSaysWhy() {
        XCTAssertThrowsError(try PreviewSink.find(environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("DISPLAY"), "\(error)")
        }
    }

    func testASessionPreviewsAloneAndSwapsWhileRunning() async throws {
        var configuration = configuration(recording: false)
        configuration.previewOutput?.sink = .fakesink
        let session = try CaptureSession(configuration: configuration)
        try await session.startRunning()
        while (session.liveStatus()?.elapsed ?? .zero) < .milliseconds(300) { try await Task.sleep(for: .milliseconds(20)) }
        let structure = try XCTUnwrap(session.runningPlan).structureKey
        try await session.swapCameras()
        try await session.setInputEnabled(false, inputID: "front")
        try session.setPreviewOverlay("● REC 00:01")
        XCTAssertEqual(session.runningPlan?.structureKey, structure)
        XCTAssertEqual(session.configuration.layout.mainInputID, "side")
        XCTAssertFalse(session.configuration.connections.contains { $0.inputPorts[0].inputID == "front" && $0.isEnabled })
        let summary = try await session.stopRunning()
        XCTAssertNil(summary.path, "nothing recorded")
        XCTAssertGreaterThan(summary.cameras.first { $0.inputID == "side" }?.frames ?? 0, 5)
    }
}
