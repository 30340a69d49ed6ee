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
            if title == "Microphones", SoundServer.isRunning() { print("  default  the desktop's default input (through PipeWire or PulseAudio)") }
            for device in group {
                let through = switch Listing.Entry.capture(of: device) {
                case "pipewire": ", shared through PipeWire (another program streams from it)"
                case "sound-server": ", shared through the sound server (another program records from it)"
                default: ""
                }
                print("  \(device.id)  \(device.name)  [\(device.position.rawValue)\(device.busInfo.map { ", \($0)" } ?? "")\(through)]")
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
            /// How pipcam captures it: "v4l2" or "alsa" directly; "pipewire" or "sound-server" when the desktop's
            /// server holds it for another program.
            let capture: String?
            let formats: [VideoFormat]

            init(_ device: CaptureDevice) {
                id = device.id
                name = device.name
                position = device.position.rawValue
                busInfo = device.busInfo
                node = device.node
                capture = Self.capture(of: device)
                formats = device.formats
            }

            static func capture(of device: CaptureDevice) -> String? {
                switch device.source {
                case .v4l2: "v4l2"
                case .alsa: "alsa"
                case .pipewire: "pipewire"
                case .soundServer: "sound-server"
                default: nil
                }
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
