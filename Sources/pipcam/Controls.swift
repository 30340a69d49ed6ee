import ArgumentParser
import Capture
import Foundation

/// `pipcam controls [CAMERA]`: what a camera lets be set, so a description's `controls:` can be written.
struct Controls: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every control of the cameras (or of one): range, default, value now, menu entries.",
        discussion: """
        Set them in a description (controls: under a camera), while recording (the control socket), or by the
        names pipcam knows: focus, exposure, white-balance, gain (each also auto or locked), zoom, pan, tilt,
        brightness, contrast, saturation, sharpness, hue, gamma, backlight-compensation, anti-flicker, torch.
        """)

    @Argument(help: "A camera's id or node, as `pipcam devices` lists it (default: every camera).")
    var camera: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        let cameras = CaptureDevices.list().filter(\.isCamera)
        let chosen = try camera.map { wanted in
            guard let found = cameras.first(where: { $0.id == wanted || $0.node == wanted || $0.node == URL(fileURLWithPath: wanted).resolvingSymlinksInPath().path }) else {
                throw CLIError("no camera '\(wanted)' (present: \(cameras.isEmpty ? "none" : cameras.map(\.id).joined(separator: ", ")); see pipcam devices)")
            }
            return [found]
        } ?? cameras
        var listing: [Listing] = []
        for device in chosen {
            guard let camera = CameraControls(device: device) else { continue }
            do {
                listing.append(Listing(camera: device.id, node: camera.node, controls: try camera.all()))
            } catch {
                throw CLIError("\(error)")
            }
        }
        if json {
            print(try JSONValue(encoding: listing).indentedText)
            return
        }
        if listing.isEmpty { print("no camera found") }
        for entry in listing {
            print(TerminalText.plain("\(entry.camera) (\(entry.node)):"))
            for control in entry.controls { print(TerminalText.plain("  " + Self.line(control))) }
        }
    }

    /// "brightness  integer  0…255  default 128  now 128", with "inactive" or "read-only" where they are.
    static func line(_ control: CameraControl) -> String {
        var parts = [control.name, control.kind.rawValue, control.rangeText, "default \(control.text(of: control.defaultValue))"]
        if let value = control.value { parts.append("now \(control.text(of: value))") }
        if control.inactive { parts.append("inactive") }
        if control.readOnly { parts.append("read-only") }
        return parts.joined(separator: "  ")
    }

    /// The JSON shape of `pipcam controls --json`: one entry per camera.
    struct Listing: Encodable {
        let camera: String
        let node: String
        let controls: [CameraControl]
    }
}
