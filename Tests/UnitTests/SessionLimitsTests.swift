import Capture
import XCTest

/// One table of bounds: what the description reader accepts at a bound, validation accepts too, and
/// both name the same bound when refusing.
final class SessionLimitsTests: XCTestCase {
    /// A description with `field` at `value`. The inset must fit the picture with its margin: the widest
    /// margin goes with the smallest inset.
    private func description(_ field: String, _ value: String) -> String {
        """
        frame-rate: \(field == "frame-rate" ? value : "30")
        cameras:
          - name: a
            synthetic: smpte
        layout:
          size: \(field == "size" ? value : field == "margin" ? "\(SessionLimits.insetSize.lowerBound)" : "0.3")
          margin: \(field == "margin" ? value : "0.03")
        output:
          file: x.mkv
          bitrate: \(field == "bitrate" ? value : "4000")
        """
    }

    private func readAndValidate(_ field: String, _ value: String) throws {
        let read = try PipelineDescription.parse(description(field, value), file: "limits.yaml")
        try read.configuration(devices: [], outputPath: "/tmp/x.mkv").0.validate()
    }

    func testTheBoundsAreAcceptedByTheReaderAndByValidation() throws {
        for (field, bound) in [("frame-rate", SessionLimits.frameRate.upperBound), ("frame-rate", SessionLimits.frameRate.lowerBound),
                               ("size", SessionLimits.insetSize.upperBound), ("size", SessionLimits.insetSize.lowerBound),
                               ("margin", SessionLimits.margin.upperBound)] {
            XCTAssertNoThrow(try readAndValidate(field, "\(bound)"), "\(field) \(bound)")
        }
        XCTAssertNoThrow(try readAndValidate("bitrate", "\(SessionLimits.videoBitrate.upperBound)"))
    }

    func testJustPastABoundTheReaderRefusesAtItsLineNamingTheBound() {
        for (field, value, bound) in [("frame-rate", "120.5", "1.0…120.0"), ("size", "0.95", "0.05…0.9"), ("bitrate", "100001", "100…100000")] {
            XCTAssertThrowsError(try readAndValidate(field, value), field) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("limits.yaml:"), text)
                XCTAssertTrue(text.contains(bound), "\(text) does not name \(bound)")
            }
        }
    }

    func testValidationRefusesWhatIsSetPastABoundInCode() {
        var configuration = SessionConfiguration(recording: [.testPatternCamera(id: "a", pattern: "smpte", label: "a")],
                                                 to: MovieFileOutput(path: "/tmp/x.mkv"))
        configuration.frameRate = 121
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertEqual("\(error)", "frame rate 121.0 is outside 1.0…120.0")
        }
    }
}
