import Foundation
import PipcamTestSupport
import XCTest

/// The page in a real browser (Debian's headless Chromium): the live picture shows the cameras, a meter
/// moves with the sound, Swap swaps the picture, and Record, Marker, Pause, Resume and Stop leave a file
/// that plays, with its chapters.
final class WebBrowserTests: XCTestCase {
    // The front camera's bars, the side camera's ball, and a microphone that beeps (its meter moves).
    private let description = """
    preset: low
    frame-rate: 30
    cameras:
      - name: front
        synthetic: smpte
      - name: side
        synthetic: ball
    microphones:
      - name: beep
        synthetic: sync
      - name: room
        synthetic: 440
    layout:
      kind: picture-in-picture
      main: front
      corner: bottom-right
    output:
      file: unused.mkv
    """

    func testThePageShowsThePictureAMovingMeterSwapsAndRecords() throws {
        let folder = try Paths.scratch("browser")
        try description.write(toFile: "\(folder)/rig.yaml", atomically: true, encoding: .utf8)
        let port = freeLocalPort()
        let serve = try Command.start([Paths.pipcam, "serve", "--pipeline", "\(folder)/rig.yaml", "--folder", folder, "--listen", "127.0.0.1:\(port)"])
        defer { serve.signal(SIGKILL) }
        try WebClients.waitUntilServing(serve, port: port)
        // Only the page's own script and looks: what follows works with nothing inline allowed.
        let policy = try XCTUnwrap(try WebClient.request(port, "/").headers["content-security-policy"])
        XCTAssertTrue(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), policy)

        let browser = try WebClients.python("web-browser.py", [String(port), folder, "--record"])
        XCTAssertEqual(browser.status, 0, browser.output + browser.error)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(browser.output.utf8)) as? [String: Any], browser.output)

        let before = try DecodedFrame(image: "\(folder)/before.png")
        let (main, inset) = regions(before)
        XCTAssertGreaterThan(before.fraction(x: main.x, y: main.y, width: main.width, height: main.height) { TestColors.bar($0) != nil }, 0.8, "the bars fill the picture")
        XCTAssertGreaterThan(before.fraction(x: inset.x, y: inset.y, width: inset.width, height: inset.height, where: TestColors.isInsetBlue), 0.5, "the ball in the inset")
        let shots = try (report["shots"] as? [String] ?? []).map { try DecodedFrame(image: $0) }
        XCTAssertTrue(shots.contains { $0.fraction(x: main.x, y: main.y, width: main.width, height: main.height, where: TestColors.isInsetBlue) > 0.8 },
                      "after Swap, the ball fills the picture")

        let meters = report["meters"] as? [String: [Double]] ?? [:]
        let beep = meters["beep"] ?? []
        XCTAssertGreaterThanOrEqual(beep.count, 20, "\(meters)")
        XCTAssertGreaterThan((beep.max() ?? -60) - (beep.min() ?? -60), 20, "the beeping microphone's meter moves: \(beep)")
        XCTAssertGreaterThan(meters["room"]?.max() ?? -60, -30, "the tone's meter shows it")

        XCTAssertEqual(report["states"] as? [String], ["live", "recording", "paused", "recording", "live"])
        serve.signal(SIGTERM)
        XCTAssertEqual(serve.wait().status, 0)
        let recordings = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mkv") }
        XCTAssertEqual(recordings.count, 1, "\(recordings)")
        let file = "\(folder)/\(recordings[0])"
        XCTAssertEqual(try MediaProbe.readerWarnings(path: file), "")
        XCTAssertGreaterThan(try MediaProbe.videoFrameCount(path: file), 50)
        // Marker, and the chapter the resume sets.
        let chapters = try Command.run(["ffprobe", "-v", "error", "-show_entries", "chapter_tags=title", "-of", "csv=p=0", file]).output
        XCTAssertEqual(chapters.split(separator: "\n").map { $0.hasPrefix("Resumed after ") ? "Resumed" : String($0) }, ["Marker 1", "Resumed"], chapters)
    }

    /// The main camera's region and the inset's, as shares of the picture the browser shows.
    private func regions(_ frame: DecodedFrame) -> (main: (x: Int, y: Int, width: Int, height: Int), inset: (x: Int, y: Int, width: Int, height: Int)) {
        let w = Double(frame.width), h = Double(frame.height)
        func box(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> (x: Int, y: Int, width: Int, height: Int) {
            (Int(x * w), Int(y * h), Int(width * w), Int(height * h))
        }
        // PreviewCommandTests' regions of a 640x360 preview, as shares.
        return (box(20 / 640, 60 / 360, 380 / 640, 150 / 360), box(440 / 640, 244 / 360, 172 / 640, 88 / 360))
    }
}
