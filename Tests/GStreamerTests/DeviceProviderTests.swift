import XCTest
@testable import GStreamer

/// Devices themselves are tested in a VM with virtual cameras and sound cards; here there may be none.
final class DeviceProviderTests: XCTestCase {
    func testStartsListsAndStops() throws {
        let provider = try XCTUnwrap(DeviceProvider(factory: "v4l2deviceprovider"))
        try provider.start()
        try provider.start()
        let devices = provider.devices
        for device in devices {
            XCTAssertTrue(device.hasClasses("Video"), device.deviceClass)
            XCTAssertFalse(device.displayName.isEmpty)
        }
        provider.stop()
        provider.stop()
        XCTAssertEqual(provider.devices.count, devices.count, "probing without starting finds the same devices")
    }

    func testAFactoryThatIsNotInstalledHasNoProvider() {
        XCTAssertNil(DeviceProvider(factory: "pipcam-no-such-provider"))
    }

    /// One provider per factory in a process: a second wrapper sees the same one, and lists the same
    /// devices again (a device monitor would hide some once another provider had been probed).
    func testEveryWrapperOfAFactoryListsTheSameDevices() throws {
        let first = try XCTUnwrap(DeviceProvider(factory: "alsadeviceprovider"))
        let firstNames = first.devices.map(\.displayName)
        _ = DeviceProvider(factory: "pulsedeviceprovider")?.devices
        let second = try XCTUnwrap(DeviceProvider(factory: "alsadeviceprovider"))
        XCTAssertEqual(second.devices.map(\.displayName), firstNames)
    }
}
