import Foundation
import PipcamTestSupport
import XCTest

/// A power cut while recording (`make test-devices`): the VM records onto a disk of its own and is reset
/// without syncing, so whatever its page cache held and pipcam had not pushed to the disk is gone, as on a
/// machine that loses its power. The disk is then read as the next boot would (its journal replayed), and
/// `pipcam repair` must give a file that loses at most the last two seconds.
final class PowerCutDeviceTests: XCTestCase {
    func testARecordingCutByAPowerLossLosesAtMostTwoSeconds() throws {
        var generator = SystemRandomNumberGenerator()
        for samples in [2, 5, 8] {
            let pause = Double.random(in: 0..<1, using: &generator)
            let label = "cut after \(samples) pressure samples and \(String(format: "%.2f", pause)) s"
            let folder = try Paths.scratch("power-cut-\(samples)")
            let disk = "\(folder)/disk.img"
            XCTAssertEqual(try Command.run(["truncate", "-s", "256M", disk]).status, 0)
            XCTAssertEqual(try Command.run(["mkfs.ext4", "-q", "-F", disk]).status, 0)
            let script = [
                "modprobe virtio_blk", "modprobe ext4 2>/dev/null || true", "mkdir -p /mnt/disk", "mount /dev/vda /mnt/disk",
                "\(Paths.pipcam) record /mnt/disk/out.mkv --preset low --events \(folder)/events.jsonl 2> \(folder)/log.txt & pid=$!",
                // The events file is on the host's side: what it says survives the cut.
                "until [ \"$(grep -c pressure \(folder)/events.jsonl 2>/dev/null || true)\" -ge \(samples) ]; do kill -0 $pid; sleep 0.05; done",
                "sleep \(pause)",
                "echo b > /proc/sysrq-trigger",
            ]
            let vm = try DeviceVM.run(script, folder: folder, options: ["--disk", disk, "--alsa", "off"], timeout: 120)
            XCTAssertEqual(vm.result.status, 125, "the VM stopped at the cut, not before: \(vm.result.error)")
            let events = try StrictJSON.parseLines(try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8))
            let recorded = try XCTUnwrap(events.compactMap { ($0 as? [String: Any])?["time"] as? Double }.max(), label) + pause

            // As the next boot would: the journal replayed, then the file read.
            XCTAssertLessThanOrEqual(try Command.run(["e2fsck", "-f", "-y", disk]).status, 1, "the disk is sound after its journal: \(label)")
            let file = "\(folder)/out.mkv"
            XCTAssertEqual(try Command.run(["debugfs", "-R", "dump /out.mkv \(file)", disk]).status, 0)
            let repair = try Command.run([Paths.pipcam, "repair", file, "\(folder)/repaired.mkv"])
            XCTAssertEqual(repair.status, 0, "\(label): \(repair.error)")
            let kept = try XCTUnwrap(try MediaProbe(path: "\(folder)/repaired.mkv").duration, label)
            // The file is pushed to the disk each second; what the last second left in memory is lost with
            // what still waits for the encoder, which on a VM slower than nominal is more.
            XCTAssertGreaterThanOrEqual(kept, recorded - vm.scaled(2), "at most two seconds lost (VM slowness \(vm.slowness)): \(label), \(repair.output)")
            XCTAssertLessThanOrEqual(kept, recorded + 1, "no more than was recorded: \(label)")
            XCTAssertEqual(try MediaProbe.readerWarnings(path: "\(folder)/repaired.mkv"), "", label)
            print("power cut at \(String(format: "%.2f", recorded)) s: \(String(format: "%.2f", kept)) s kept")
        }
    }
}
