@testable import CaptureGraph
import CaptureModel
import XCTest

/// Which hardware encoder records: the first installed one that starts; each installed one that does not
/// start before it is a line; none installed is no line at all.
final class HardwareEncodersTests: XCTestCase {
    func testTheFirstInstalledEncoderThatStartsIsChosenAndEachRefusalBeforeItSaid() {
        let trial = HardwareEncoders.choose(among: [.vah264enc, .vah264lpenc, .v4l2h264enc], isInstalled: { $0 != .v4l2h264enc },
                                            starts: { $0 == .vah264enc ? "no H.264 encoding in this driver" : nil })
        XCTAssertEqual(trial.chosen, .vah264lpenc)
        XCTAssertEqual(trial.refusals, ["vah264enc is installed but did not start: no H.264 encoding in this driver"])
    }

    func testNoneStartingChoosesNoneAndSaysEach() {
        let trial = HardwareEncoders.choose(among: [.vah264enc, .v4l2h264enc], isInstalled: { _ in true }, starts: { _ in "refused" })
        XCTAssertNil(trial.chosen)
        XCTAssertEqual(trial.refusals.count, 2)
    }

    func testAnEncoderThatIsNotInstalledIsNeitherTriedNorSaid() {
        let trial = HardwareEncoders.choose(among: [.vah264enc], isInstalled: { _ in false }, starts: { _ in
            XCTFail("not tried")
            return nil
        })
        XCTAssertEqual(trial, HardwareEncoders.Trial(chosen: nil, refusals: []))
    }

    func testTheEnvironmentNamesOnlyHardwareEncoders() {
        setenv("PIPCAM_HARDWARE_ENCODERS", "x264enc avenc_h264_omx nothing vah264lpenc", 1)
        defer { unsetenv("PIPCAM_HARDWARE_ENCODERS") }
        XCTAssertEqual(HardwareEncoders.candidates, [.openMAXH264Encoder, .vah264lpenc])
        unsetenv("PIPCAM_HARDWARE_ENCODERS")
        XCTAssertEqual(HardwareEncoders.candidates, EncoderChoice.hardwareFactories)
    }
}
