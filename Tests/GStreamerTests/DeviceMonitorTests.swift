import XCTest
@testable import GStreamer

/// Devices themselves are tested in a VM with virtual cameras and sound cards; here there may be none.
final class DeviceMonitorTests: XCTestCase {
    func testStartsListsAndStops() throws {
        let monitor = DeviceMonitor(classes: ["Video/Source", "Audio/Source"])
        try monitor.start()
        let devices = monitor.devices
        for device in devices {
            XCTAssertTrue(device.hasClasses("Video/Source") || device.hasClasses("Audio/Source"), device.deviceClass)
            XCTAssertFalse(device.displayName.isEmpty)
        }
        monitor.stop()
        monitor.stop()
        XCTAssertEqual(monitor.devices.count, devices.count, "probing without starting finds the same devices")
    }

    func testMonitorIsFreedWithItsWrapper() async throws {
        let finalized = Events<Void>()
        do {
            let monitor = DeviceMonitor(classes: ["Video/Source"])
            XCTAssertEqual(monitor.referenceCount, 1)
            monitor.onFinalize { finalized.send(()) }
            let messages = monitor.bus.messages()
            try monitor.start()
            _ = messages
        }
        try await finalized.next("the device monitor to be finalized")
    }
}
