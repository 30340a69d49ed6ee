@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import Foundation
import PipcamTestSupport
import XCTest

/// The lines of `record --events`, read as strictly as jq or Python read them: a measurement that is
/// not a number is null, never `nan`, and a step's text keeps its paths as written.
final class EventLineTests: XCTestCase {
    func testAPressureFactorThatIsNotANumberIsWrittenAsNull() throws {
        let factors = [PressureFactor(kind: .processCPU, value: 0.12345, level: .nominal),
                       PressureFactor(kind: .cpuStall, value: .nan, level: .nominal),
                       PressureFactor(kind: .dropped, value: .infinity, level: .critical),
                       PressureFactor(kind: .thermal, value: -.infinity, level: .nominal)]
        let sample = PressureSample(time: .milliseconds(1500), reading: PressureReading(factors: factors),
                                    counts: .init(delivered: 45, dropped: 2), skipped: 3, throttleStep: 1)
        let line = try XCTUnwrap(try StrictJSON.parse(sample.jsonLine) as? [String: Any])
        XCTAssertEqual(line["event"] as? String, "pressure")
        XCTAssertEqual(line["time"] as? Double, 1.5)
        XCTAssertEqual(line["level"] as? String, "critical")
        XCTAssertEqual(line["pictures"] as? Int, 45)
        XCTAssertEqual(line["dropped"] as? Int, 2)
        XCTAssertEqual(line["skipped"] as? Int, 3)
        XCTAssertEqual(line["step"] as? Int, 1)
        let read = try XCTUnwrap(line["factors"] as? [String: Any])
        XCTAssertEqual(read["cpu"] as? Double, 0.123, "rounded to 3 places")
        for kind in ["cpu-wait", "dropped", "thermal"] {
            XCTAssertTrue(read[kind] is NSNull, "\(kind) in \(sample.jsonLine)")
        }
    }

    func testAThrottleStepWithNonFiniteSettingsKeepsItsFieldsAndItsPaths() throws {
        let settings = ThrottleSettings(insetScale: .nan, mainScale: .infinity, frameRate: -.infinity)
        let event = ThrottleEvent(kind: .throttle, step: 1, bottom: 4, settings: settings, change: "inset camera at 50 %",
                                  reason: "tasks waiting in /proc/pressure/cpu", time: .milliseconds(3250))
        XCTAssertTrue(event.jsonLine.contains("/proc/pressure/cpu"), event.jsonLine)
        let line = try XCTUnwrap(try StrictJSON.parse(event.jsonLine) as? [String: Any])
        XCTAssertEqual(line["event"] as? String, "throttle")
        XCTAssertEqual(line["time"] as? Double, 3.25)
        XCTAssertEqual(line["step"] as? Int, 1)
        XCTAssertEqual(line["steps"] as? Int, 4)
        XCTAssertEqual(line["reason"] as? String, "tasks waiting in /proc/pressure/cpu")
        let written = try XCTUnwrap(line["settings"] as? [String: Any], event.jsonLine)
        XCTAssertEqual(Set(written.keys), ["inset-scale", "main-scale", "frame-rate"])
        XCTAssertTrue(written.values.allSatisfy { $0 is NSNull }, event.jsonLine)
    }
}
