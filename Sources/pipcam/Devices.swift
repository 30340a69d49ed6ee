import ArgumentParser
import Capture
import Foundation
import GStreamer

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List cameras and microphones with ids, positions and formats.")

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        try Gst.initialize()
        let devices = DeviceDiscovery.devices()
        if json {
            print(try JSONValue(encoding: Listing(devices)).indentedText)
            return
        }
        for (title, group) in [("Cameras", devices.filter(\.isCamera)), ("Microphones", devices.filter { !$0.isCamera })] {
            print("\(title):")
            if group.isEmpty { print("  (none found)") }
            if title == "Cameras" { for problem in CameraAccess.unopenableCameras() { print("  \(problem)") } }
            for device in group {
                print("  \(device.id)  \(device.name)  [\(device.position.rawValue)\(device.busInfo.map { ", \($0)" } ?? "")]")
                for format in device.formats { print("      \(format)") }
            }
        }
    }

    /// The JSON shape of `pipcam devices --json`.
    struct Listing: Encodable {
        struct Entry: Encodable {
            let id: String
            let name: String
            let position: String
            let busInfo: String?
            let node: String?
            let formats: [VideoFormat]

            init(_ device: CaptureDevice) {
                id = device.id
                name = device.name
                position = device.position.rawValue
                busInfo = device.busInfo
                switch device.source {
                case .v4l2(let path): node = path
                case .alsa(let name): node = name
                default: node = nil
                }
                formats = device.formats
            }
        }

        let cameras: [Entry]
        let microphones: [Entry]

        init(_ devices: [CaptureDevice]) {
            cameras = devices.filter(\.isCamera).map(Entry.init)
            microphones = devices.filter { !$0.isCamera }.map(Entry.init)
        }
    }
}
