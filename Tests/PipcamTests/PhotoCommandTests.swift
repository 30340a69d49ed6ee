import Foundation
import PipcamTestSupport
import XCTest

/// `pipcam photo` and `pipcam record --photos` as a user runs them.
final class PhotoCommandTests: XCTestCase {
    private func size(_ path: String) throws -> [Int] {
        let stream = try XCTUnwrap(try MediaProbe(path: path).videoStreams.first, path)
        return [stream.width ?? 0, stream.height ?? 0]
    }

    func testPhotoOfTheDemoWritesEachCameraTheCompositeThumbnailsAndASidecar() throws {
        let folder = try Paths.scratch("photo-demo")
        let result = try Command.run([Paths.pipcam, "photo", folder, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml"])
        XCTAssertEqual(result.status, 0, result.error)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let sidecars = files.filter { $0.hasSuffix(".json") }
        XCTAssertEqual(sidecars.count, 1, "\(files)")
        let id = String(sidecars[0].dropLast(5))
        XCTAssertEqual(files, (["composite", "composite-thumb", "front", "front-thumb", "side", "side-thumb"].map { "\(id)-\($0).jpg" } + ["\(id).json"]).sorted())
        for name in ["front", "side", "composite"] {
            XCTAssertEqual(try size("\(folder)/\(id)-\(name).jpg"), [1280, 720], name)
            XCTAssertEqual(try size("\(folder)/\(id)-\(name)-thumb.jpg"), [160, 90], name)
        }
        let sidecar = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(id).json"))) as? [String: Any])
        XCTAssertEqual(sidecar["id"] as? String, id)
        XCTAssertEqual(sidecar["format"] as? String, "jpeg")
        XCTAssertNotNil(sidecar["takenAt"] as? String)
        let stills = try XCTUnwrap(sidecar["stills"] as? [[String: Any]])
        XCTAssertEqual(stills.compactMap { $0["width"] as? Int }, [1280, 1280, 1280])
        XCTAssertTrue(result.output.contains("photo \(id): 3 stills"), result.output)
    }

    /// A photo records nothing: the composed picture is made for it alone, and a live photo's clip is cut
    /// from a picture encoded and never written. The demo names demo.mkv as its file; it must not appear.
    func testALivePhotoIsTakenWithoutWritingARecording() throws {
        let folder = try Paths.scratch("photo-live")
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        let result = try Command.run([Paths.pipcam, "photo", "photos", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml", "--live"],
                                     directory: folder)
        XCTAssertEqual(result.status, 0, result.error)
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/photos")
        let clip = try XCTUnwrap(files.first { $0.hasSuffix("-live.mkv") }, "\(files)")
        XCTAssertEqual(files.filter { $0.hasSuffix(".jpg") }.count, 6, "\(files)")
        XCTAssertEqual(try MediaProbe.decodeErrors(path: "\(folder)/photos/\(clip)"), "")
        XCTAssertGreaterThan(try MediaProbe(path: "\(folder)/photos/\(clip)").duration ?? 0, 2.5)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["photos"], "nothing but the photos was written")
    }

    func testPhotoIntoAMissingFolderFailsInOneLine() throws {
        let result = try Command.run([Paths.pipcam, "photo", "/nonexistent/photos", "--pipeline", "\(Paths.repository)/pipelines/demo.yaml"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.error.trimmingCharacters(in: .whitespacesAndNewlines), "Error: the photo folder /nonexistent/photos does not exist")
    }

    func testSignalUSR1TakesAPhotoWhileRecordingWithoutLosingAFrame() throws {
        let folder = try Paths.scratch("photo-usr1")
        let file = "\(folder)/out.mkv"
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        let recording = try Command.start([Paths.pipcam, "record", file, "--pipeline", "\(Paths.repository)/pipelines/demo.yaml",
                                           "--duration", "4", "--photos", "\(folder)/photos"])
        // The recording has started once its file exists; then the shutter.
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: file) && Date() < deadline { usleep(50_000) }
        recording.signal(SIGUSR1)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        let photos = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/photos")
        XCTAssertEqual(photos.filter { $0.hasSuffix(".jpg") }.count, 6, "\(photos)")
        XCTAssertEqual(photos.filter { $0.hasSuffix(".json") }.count, 1)
        XCTAssertEqual(Double(try MediaProbe.videoFrameCount(path: file)), 120, accuracy: 1)
        XCTAssertEqual(try MediaProbe.decodeErrors(path: file), "")
    }
}
