@testable import Capture
@testable import CaptureGraph
@testable import CaptureModel
import XCTest

/// Pressure levels from known measurements, and the readers of /proc and /sys on trees of known files.
final class PressureTests: XCTestCase {
    func snapshot(at seconds: Int, cpu: Double? = nil, cores: Int = 2, stall: Double? = nil,
                  temperature: Double? = nil, critical: Double? = nil) -> SystemSnapshot {
        SystemSnapshot(time: .seconds(seconds), processCPUSeconds: cpu, cores: cores, cpuStall: stall,
                       temperature: temperature, criticalTemperature: critical)
    }

    func testProcessCPUIsAShareOfAllCoresBetweenTwoSamples() {
        var monitor = PressureMonitor()
        XCTAssertEqual(monitor.update(system: snapshot(at: 0, cpu: 10)).factors, [], "a rate needs two samples")
        let busy = monitor.update(system: snapshot(at: 2, cpu: 13.8))
        XCTAssertEqual(busy.factors.first?.kind, .processCPU)
        XCTAssertEqual(busy.factors.first?.value ?? 0, 0.95, accuracy: 1e-9)
        XCTAssertEqual(busy.level, .serious)
        XCTAssertEqual(monitor.update(system: snapshot(at: 3, cpu: 14.2)).level, .nominal)
        XCTAssertEqual(monitor.update(system: snapshot(at: 4, cpu: 15.8)).level, .fair)
        XCTAssertEqual(monitor.update(system: snapshot(at: 5, cpu: 17.8)).level, .critical)
    }

    func testDroppedFramesAreCountedBetweenSamples() {
        var monitor = PressureMonitor()
        let first = monitor.update(system: snapshot(at: 0), frames: .init(delivered: 1000, dropped: 500))
        XCTAssertFalse(first.factors.contains { $0.kind == .dropped }, "drops before the first sample are history")
        let reading = monitor.update(system: snapshot(at: 1), frames: .init(delivered: 1090, dropped: 510))
        XCTAssertEqual(reading.factors.first { $0.kind == .dropped }?.value ?? 0, 0.1, accuracy: 1e-9)
        XCTAssertEqual(reading.level, .serious)
        XCTAssertEqual(reading.description, "serious: 10.0 % of frames dropped")
        XCTAssertEqual(monitor.update(system: snapshot(at: 2), frames: .init(delivered: 1150, dropped: 510)).level, .nominal)
    }

    func testTheLevelIsTheHighestFactorAndNamesIt() {
        var monitor = PressureMonitor()
        let reading = monitor.update(system: snapshot(at: 0, stall: 65, temperature: 50, critical: 105), queueFill: 0.6)
        XCTAssertEqual(reading.factors.map(\.kind), [.cpuStall, .queueFill, .thermal])
        XCTAssertEqual(reading.factors.map(\.level), [.serious, .fair, .nominal])
        XCTAssertEqual(reading.level, .serious)
        XCTAssertEqual(reading.causes, "tasks waiting for a cpu 65 % of the time")
        XCTAssertEqual(monitor.update(system: snapshot(at: 1, stall: 95)).level, .critical)
        XCTAssertEqual(monitor.update(system: snapshot(at: 2), queueFill: 1).level, .critical)
        XCTAssertEqual(monitor.update(system: snapshot(at: 3)).level, .nominal, "nothing measured is nothing wrong")
    }

    func testHeatCountsAgainstTheCriticalTripPoint() {
        var monitor = PressureMonitor()
        let levels = [60, 76, 86, 96, 100].map { monitor.update(system: snapshot(at: $0, temperature: Double($0), critical: 100)).level }
        XCTAssertEqual(levels, [.nominal, .fair, .serious, .critical, .shutdown])
        XCTAssertEqual(monitor.update(system: snapshot(at: 200, temperature: 86)).level, .serious, "100 °C assumed without a trip point")
    }

    func testReadersParseTheKernelsFiles() {
        let stat = "4242 (pip cam) (x)) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 12 0 816551 3133440 374"
        XCTAssertEqual(SystemReader.cpuTicks(stat), 300)
        XCTAssertNil(SystemReader.cpuTicks("garbage"))
        let psi = "some avg10=12.50 avg60=2.24 avg300=7.28 total=906115413\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        XCTAssertEqual(SystemReader.someAverage10(psi), 12.5)
        XCTAssertNil(SystemReader.someAverage10(""))
    }

    func testASnapshotReadsProcAndSysUnderARoot() throws {
        let root = NSTemporaryDirectory() + "pipcam-proc-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "proc/self/stat": "1 (pipcam) S 0 1 1 0 -1 0 0 0 0 0 \(SystemReader.clockTicksPerSecond * 3) \(SystemReader.clockTicksPerSecond) 0 0 20 0 1",
            "proc/pressure/cpu": "some avg10=40.00 avg60=1.00 avg300=1.00 total=1\n",
            "sys/class/thermal/thermal_zone0/temp": "45000\n",
            "sys/class/thermal/thermal_zone1/temp": "71500\n",
            "sys/class/thermal/thermal_zone1/trip_point_0_type": "passive\n",
            "sys/class/thermal/thermal_zone1/trip_point_0_temp": "80000\n",
            "sys/class/thermal/thermal_zone1/trip_point_1_type": "critical\n",
            "sys/class/thermal/thermal_zone1/trip_point_1_temp": "95000\n",
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: "\(root)/\(path)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let snapshot = SystemReader.snapshot(root: root, now: .seconds(7))
        XCTAssertEqual(snapshot.time, .seconds(7))
        XCTAssertEqual(snapshot.processCPUSeconds, 4)
        XCTAssertEqual(snapshot.cpuStall, 40)
        XCTAssertEqual(snapshot.temperature, 71.5)
        XCTAssertEqual(snapshot.criticalTemperature, 95)

        let bare = SystemReader.snapshot(root: root + "/nothing", now: .zero)
        XCTAssertNil(bare.processCPUSeconds)
        XCTAssertNil(bare.cpuStall)
        XCTAssertNil(bare.temperature)
    }

    func testTheRealSystemCanBeRead() {
        let snapshot = SystemReader.snapshot()
        XCTAssertNotNil(snapshot.processCPUSeconds, "/proc/self/stat is always there on Linux")
        XCTAssertGreaterThan(snapshot.cores, 0)
    }
}
