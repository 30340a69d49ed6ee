import ArgumentParser
import Capture
import Foundation

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List cameras and microphones with ids, positions and formats.")

    @Flag(name: .long, help: "Print JSON (with --watch: JSON Lines, the listing first, then one line per change).")
    var json = false

    @Flag(name: .long, help: "After the listing, report cameras as they arrive and go away, until Ctrl-C.")
    var watch = false

    func run() async throws {
        // Started before the listing, so a camera that comes or goes while it is made is not missed.
        let changes = watch ? try CameraChanges() : nil
        let devices = CaptureDevices.list()
        if json {
            let listing = try JSONValue(encoding: Listing(devices))
            print(watch ? listing.text : listing.indentedText)
        } else {
            printListing(devices)
        }
        guard let changes else { return }
        // Changes go straight to the descriptor, each as it happens: the listing, buffered, goes out first.
        fflush(nil)
        FileHandle.standardError.write(Data("watching for cameras to arrive or go away; Ctrl-C stops\n".utf8))
        for await change in changes.stream {
            let line = json ? try JSONValue(encoding: Change(change)).text : TerminalText.plain(change.line)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    private func printListing(_ devices: [CaptureDevice]) {
        for (title, group) in [("Cameras", devices.filter(\.isCamera)), ("Microphones", devices.filter { !$0.isCamera })] {
            print("\(title):")
            if group.isEmpty { print("  (none found)") }
            if title == "Cameras" { for problem in CameraAccess.unopenableCameras() { print(TerminalText.plain("  \(problem)")) } }
            if title == "Microphones", SoundServer.isRunning() { print("  default  the desktop's default input (through PipeWire or PulseAudio)") }
            for device in group {
                let through = switch Listing.Entry.capture(of: device) {
                case "pipewire": ", shared through PipeWire (another program streams from it)"
                case "sound-server": ", shared through the sound server (another program records from it)"
                default: ""
                }
                print(TerminalText.plain("  \(device.id)  \(device.name)  [\(device.position.rawValue)\(device.busInfo.map { ", \($0)" } ?? "")\(through)]"))
                for format in device.formats { print("      \(format)") }
            }
        }
    }

    /// One line of `--watch --json`.
    struct Change: Encodable {
        let change: String
        let camera: Listing.Entry

        init(_ change: CameraChange) {
            switch change {
            case .arrived(let device): self.change = "arrived"; camera = Listing.Entry(device)
            case .left(let device): self.change = "left"; camera = Listing.Entry(device)
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
                case .testPattern, .tone, .syncBeeps, .file, .screen, .screencast, .network, .cameraSound: nil
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

/// The camera watch as a stream that Ctrl-C or SIGTERM ends, so `devices --watch` exits cleanly.
private final class CameraChanges: @unchecked Sendable {
    let stream: AsyncStream<CameraChange>
    private let watch: CameraWatcher
    private var signals: [DispatchSourceSignal] = []

    init() throws {
        let (stream, continuation) = AsyncStream.makeStream(of: CameraChange.self)
        guard let watch = CameraWatcher(report: { continuation.yield($0) }) else {
            throw CLIError("cannot watch cameras: GStreamer's V4L2 plugin is missing: sudo apt-get install gstreamer1.0-plugins-good")
        }
        self.stream = stream
        self.watch = watch
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.finish() }
            source.resume()
            signals.append(source)
        }
    }

    deinit {
        signals.forEach { $0.cancel() }
        watch.stop()
    }
}

extension CameraChange {
    /// "camera left: ID  NAME  [/dev/video1]", as the listing names cameras.
    var line: String {
        let (word, device) = switch self {
        case .arrived(let device): ("arrived", device)
        case .left(let device): ("left", device)
        }
        return "camera \(word): \(device.id)  \(device.name)  [\(device.node ?? "")]"
    }
}
