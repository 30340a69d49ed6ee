@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import PipcamTestSupport
import XCTest

/// The measured budget is kept between runs, and measured again when it no longer describes the machine.
final class BudgetCacheTests: XCTestCase {
    func testAStoredBudgetIsReadBackUnlessTheMachineOrEncoderChanged() throws {
        let folder = NSTemporaryDirectory() + "pipcam-budget-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/pipcam/pixel-budget.json"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let budget = PixelBudget(generate: 1e8, decode: 5e8, composite: 2e9, encode: 9e7, cores: cores,
                                 measured: Date(timeIntervalSince1970: 1_700_000_000), gstreamer: "GStreamer 1.22.0",
                                 encoder: BudgetCalibration.encoderSettings)
        XCTAssertNil(BudgetCache.load(from: path))
        try BudgetCache.save(budget, to: path)
        XCTAssertEqual(BudgetCache.load(from: path), budget)
        let stored = try XCTUnwrap(try StrictJSON.parse(String(contentsOfFile: path, encoding: .utf8)) as? [String: Any])
        XCTAssertEqual(stored["measured"] as? String, "2023-11-14T22:13:20Z")
        XCTAssertEqual(stored["encode"] as? Double, 9e7)

        var otherMachine = budget
        otherMachine.cores = cores + 2
        try BudgetCache.save(otherMachine, to: path)
        XCTAssertNil(BudgetCache.load(from: path), "measured with other cores")

        var otherEncoder = budget
        otherEncoder.encoder = "x264enc speed-preset=placebo"
        try BudgetCache.save(otherEncoder, to: path)
        XCTAssertNil(BudgetCache.load(from: path), "measured with other encoder settings")

        try Data("{\"encode\": 0}".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(BudgetCache.load(from: path), "unreadable")
    }

    func testTheEncoderSettingsAreThoseOfARecording() {
        XCTAssertTrue(BudgetCalibration.encoderSettings.hasPrefix("x264enc "), BudgetCalibration.encoderSettings)
        XCTAssertTrue(BudgetCalibration.encoderSettings.contains("speed-preset=veryfast"), BudgetCalibration.encoderSettings)
    }

    func testTheCacheFollowsXDGCacheHome() {
        let saved = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        defer { if let saved { setenv("XDG_CACHE_HOME", saved, 1) } else { unsetenv("XDG_CACHE_HOME") } }
        setenv("XDG_CACHE_HOME", "/somewhere/cache", 1)
        XCTAssertEqual(BudgetCache.file, "/somewhere/cache/pipcam/pixel-budget.json")
        unsetenv("XDG_CACHE_HOME")
        XCTAssertEqual(BudgetCache.file, NSHomeDirectory() + "/.cache/pipcam/pixel-budget.json")
    }
}
