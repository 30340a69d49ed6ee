import Foundation
import XCTest

/// The small VM with real kernel drivers (`scripts/with-devices`) as the device tests run it, and how
/// slow it was this time.
///
/// The VM emulates its processor (no KVM here), and how fast it runs depends on the machine and on
/// what else that machine is doing: the same test saw a slate 0.07 s after a loss on one machine and
/// 3 s on another. So the device tests assert what happens and in what order, and any time bound they
/// state is for a VM of `nominalCalibration`, stretched by `slowness` on a slower one. `with-devices`
/// times a fixed piece of work as each VM starts (`WITH_DEVICES_CALIBRATION_MS`, see its README).
public enum DeviceVM {
    /// What the calibration took on the VM the device tests' bounds were written for (a 2-core machine
    /// with nothing else running: 2.0 to 2.1 s, of which 1 s starts GStreamer), in milliseconds.
    public static let nominalCalibration = 2_000.0

    public struct Run: Sendable {
        public let result: CommandResult
        /// How many times slower than nominal the VM ran (at least 1).
        public let slowness: Double

        /// A time bound of the nominal VM, stretched for this one.
        public func scaled(_ seconds: Double) -> Double { seconds * slowness }
    }

    /// A script line that sends one line to a pipcam control socket in the VM and prints its answer
    /// (Perl is in every Debian system). The shared folders take no Unix socket: put it on a tmpfs.
    public static func sendControl(_ line: String, socket: String) -> String {
        #"perl -MIO::Socket::UNIX -e '$s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "$!\n"; print $s "$ARGV[1]\n"; print scalar <$s>;' "#
            + "\(socket) '\(line)'"
    }

    /// Runs `script` (sh, `set -e`) in the VM with `folder` writable, and skips the test when device tests
    /// are not asked for or the VM cannot boot. `options` go to `with-devices` (`--alsa`, `--pipewire`, `--disk`).
    public static func run(_ script: [String], folder: String, options: [String] = [], timeout: Int = 200) throws -> Run {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["PIPCAM_DEVICE_TESTS"] == "1",
                          "device tests run with `make test-devices` (PIPCAM_DEVICE_TESTS=1)")
        let calibration = "\(folder)/.vm-calibration-ms"
        let lines = ["echo \"${WITH_DEVICES_CALIBRATION_MS:-0}\" > \(calibration)"] + script
        let result = try Command.run(["\(Paths.repository)/scripts/with-devices", "--timeout", "\(timeout)", "--rw", folder] + options
                                     + ["--", "sh", "-c", "set -e; " + lines.joined(separator: "\n")], directory: Paths.repository)
        if result.status == 77 {
            let reason = result.error.split(separator: "\n").last.map(String.init) ?? "unknown reason"
            print("!!!!! DEVICE TESTS SKIPPED: the VM with real devices could not boot here: \(reason)")
            throw XCTSkip("the VM with real devices could not boot: \(reason)")
        }
        let measured = (try? String(contentsOfFile: calibration, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        let slowness = max(1, measured / nominalCalibration)
        print("device VM: calibration \(Int(measured)) ms, slowness \(String(format: "%.2f", slowness))")
        return Run(result: result, slowness: slowness)
    }
}
