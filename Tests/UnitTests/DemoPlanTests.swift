import Capture
import PipcamTestSupport
@testable import pipcam
import XCTest

/// The graph of `pipelines/demo.yaml`, as `pipcam describe --pipeline` prints it, against the line kept
/// in `Golden/demo-launch-line.txt`: a change to the builder shows here as a diff of one line, without
/// running anything. When the change is meant, write the new line there
/// (`pipcam describe --pipeline pipelines/demo.yaml --output demo.mkv > Tests/UnitTests/Golden/demo-launch-line.txt`;
/// the description's own output file is beside it, a path that differs from clone to clone).
final class DemoPlanTests: XCTestCase {
    func testTheDemosGraphIsTheKeptOne() throws {
        let options = try SessionOptions.parse(["--pipeline", "\(Paths.repository)/pipelines/demo.yaml"])
        let line = try options.configuration(outputPath: "demo.mkv", standInsAlways: true).graphPlan().launchLine
        let kept = try String(contentsOfFile: "\(Paths.repository)/Tests/UnitTests/Golden/demo-launch-line.txt", encoding: .utf8)
        XCTAssertEqual(line, kept.trimmingCharacters(in: .newlines))
    }
}

/// `pipcam photo`'s session: the picture is composed for a photo of it, and nothing is encoded or written.
final class ComposedOnlyPlanTests: XCTestCase {
    func testAPictureComposedForPhotosOnlyIsNeitherEncodedNorWritten() throws {
        var configuration = Fixtures.configuration(path: "/nonexistent/never.mkv", microphones: [])
        configuration.movieFile?.writesFile = false
        configuration.attachPhotoOutput(PhotoOutput())
        let plan = try configuration.graphPlan()
        XCTAssertNotNil(plan.compositeSource, "the composite is there to photograph")
        XCTAssertNil(plan.mux)
        XCTAssertNil(plan.pictureEncoder)
        XCTAssertEqual(plan.nodes.filter { [.filesink, .x264enc, .matroskamux, .opusenc].contains($0.factory) }.map(\.name), [])
    }

    func testALivePhotoStillEncodesThePictureButWritesNothing() throws {
        var configuration = Fixtures.configuration(path: "/nonexistent/never.mkv", microphones: [])
        configuration.movieFile?.writesFile = false
        configuration.attachPhotoOutput(PhotoOutput(isLivePhotoCaptureEnabled: true))
        let plan = try configuration.graphPlan()
        XCTAssertNotNil(plan.livePhotoSink)
        XCTAssertNil(plan.mux)
        XCTAssertEqual(plan.nodes.filter { $0.factory == .filesink }.count, 0)
    }

    /// `pipcam stream`'s session: the picture encoded once for the streams, the mix in AAC for them
    /// alone (no Opus: nothing would write it), and no file.
    func testStreamsAloneHaveThePictureAndTheMixEncodedForThemAndNoFile() throws {
        var configuration = Fixtures.configuration(path: "/nonexistent/never.mkv")
        configuration.movieFile?.writesFile = false
        configuration.streams = [try StreamOutput(name: "live", address: "rtmp://127.0.0.1/live/key")]
        let plan = try configuration.graphPlan()
        XCTAssertNil(plan.mux)
        XCTAssertNotNil(plan.pictureEncoder)
        let factories = plan.nodes.map(\.factory)
        XCTAssertEqual([.x264enc, .voaacenc, .opusenc, .filesink].map { kind in factories.filter { $0 == kind }.count }, [1, 1, 0, 0])
    }

    func testAMovieThatWritesNoFileTakesNoMicrophones() {
        var configuration = Fixtures.configuration(path: "/tmp/x.mkv")
        configuration.movieFile?.writesFile = false
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertEqual("\(error)", "microphones need a file or a stream to be heard in: the session has neither")
        }
    }
}
