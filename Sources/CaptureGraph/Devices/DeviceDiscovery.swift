import CaptureModel
import Foundation
import GStreamer
import LinuxIO

/// Finds the cameras and microphones attached to this machine through GStreamer's V4L2 and ALSA device
/// providers and turns them into `CaptureDevice`s with stable ids, positions and formats.
///
/// The providers are asked directly, not through a device monitor: on a desktop a monitor lists each
/// camera and sound card once per provider (V4L2, ALSA, PipeWire, PulseAudio, with PulseAudio's monitors
/// of outputs among the sources), and hides some providers after the first lookup. Asked directly, the
/// V4L2 and ALSA providers list each device once, every time.
public enum DeviceDiscovery {
    /// The providers of the devices pipcam captures from directly.
    static let providers = ["v4l2deviceprovider", "alsadeviceprovider"]

    /// Every camera and microphone present now, cameras first, each in the system's order (video0 before
    /// video1, card 0 before card 1), so "the first two cameras" means the same thing every time.
    public static func devices() -> [CaptureDevice] {
        let links = CameraLinks.read()
        let found = providers.compactMap(DeviceProvider.init(factory:)).flatMap(\.devices).compactMap { captureDevice($0, links: links) }.sorted { systemOrder($0).lexicographicallyPrecedes(systemOrder($1)) }
        let cameras = found.filter(\.isCamera), microphones = found.filter { !$0.isCamera }
        let heard = uniqueIDs(microphones)
        let all = (heard.map { ($0, systemOrder($0)) } + heldBySoundServer(besides: heard))
            .sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
        return sharedThroughPipeWire(uniqueIDs(cameras)) + all
    }

    /// What only the desktop's sound server can record: sound cards it holds for another program (a call)
    /// — the ALSA provider cannot open such a card, so it does not list it, and opening it directly would
    /// fail as busy on a card that captures for one program at a time (most real ones) — and inputs that
    /// are no sound card (a Bluetooth headset), by the server's name for them, which is stable. Each comes
    /// with its place in the system's order (card, device; others last).
    private static func heldBySoundServer(besides listed: [CaptureDevice]) -> [(CaptureDevice, [Int])] {
        guard SoundServer.isRunning() else { return [] }
        let listedCards = Set(listed.compactMap { device -> String? in
            guard case .alsa = device.source else { return nil }
            return systemOrder(device).map(String.init).joined(separator: ",")
        })
        var held: [(CaptureDevice, [Int])] = []
        for (device, source) in soundServerSources() {
            let properties = device.properties
            guard let card = properties["alsa.card"], let number = properties["alsa.device"] else {
                held.append((CaptureDevice(id: source, name: device.displayName, mediaType: .audio, source: .soundServer(source: source)), [Int.max]))
                continue
            }
            guard !listedCards.contains("\(card),\(number)") else { continue }
            let (id, name) = alsaIdentity("hw:\(card),\(number)", displayName: device.displayName)
            guard !held.contains(where: { $0.0.id == id }) else { continue }
            held.append((CaptureDevice(id: id, name: name, mediaType: .audio, busInfo: properties["alsa.card_name"],
                                       source: .soundServer(source: source)), [Int(card) ?? 0, Int(number) ?? 0]))
        }
        return held
    }

    /// Cameras PipeWire streams from for another program, to be shared through PipeWire: V4L2 lets one
    /// program at a time capture, so opening such a camera directly would fail as busy. A camera some
    /// other program streams from stays as it is (its start names that program).
    private static func sharedThroughPipeWire(_ cameras: [CaptureDevice]) -> [CaptureDevice] {
        let busy = cameras.filter { camera in
            guard case .v4l2(let path) = camera.source, CameraStreaming.isBusy(path) else { return false }
            return CameraAccess.holders(of: path).contains { $0.name == "pipewire" }
        }
        guard !busy.isEmpty else { return cameras }
        let nodes = pipeWireCameraNodes()
        return cameras.map { camera in
            guard busy.contains(camera), case .v4l2(let path) = camera.source, let node = nodes[path] else { return camera }
            // PipeWire shares the stream as it is: the camera offers the mode it streams in now, nothing else.
            return CaptureDevice(id: camera.id, name: camera.name, mediaType: .video, position: camera.position, busInfo: camera.busInfo,
                                 source: .pipewire(target: node, v4l2Path: path), formats: CameraStreaming.currentMode(of: path).map { [$0] } ?? camera.formats)
        }
    }

    /// PipeWire's camera nodes by V4L2 node path. Its provider logs criticals for formats it cannot name
    /// (see `QuietCriticals`), so it is asked only when a camera needs sharing.
    private static func pipeWireCameraNodes() -> [String: String] {
        let devices = QuietCriticals.run(droppingFrom: ["GStreamer-Video"]) { DeviceProvider(factory: "pipewiredeviceprovider")?.devices ?? [] }
        var nodes: [String: String] = [:]
        for device in devices where device.hasClasses("Video/Source") {
            let properties = device.properties
            if let path = properties["api.v4l2.path"], let name = properties["node.name"] { nodes[path] = nodes[path] ?? name }
        }
        return nodes
    }

    /// The numbers in a device's node name: /dev/video10 → [10], hw:1,0 → [1, 0].
    private static func systemOrder(_ device: CaptureDevice) -> [Int] {
        (device.node ?? device.id).split { !$0.isNumber }.compactMap { Int($0) }
    }

    /// Converts one device a provider lists, or nil for devices pipcam cannot drive (e.g. output-only).
    static func captureDevice(_ device: Device, links: CameraLinks) -> CaptureDevice? {
        let properties = device.properties
        if device.hasClasses("Video/Source"), let path = properties["device.path"], path.hasPrefix("/dev/video") {
            let busInfo = properties["v4l2.device.bus_info"] ?? properties["api.v4l2.cap.bus_info"]
            return CaptureDevice(
                id: links.id(node: path, busInfo: busInfo), name: device.displayName, mediaType: .video,
                position: V4L2Orientation.position(of: path) ?? .unspecified, busInfo: busInfo,
                source: .v4l2(path: path), formats: device.caps.map { formats($0) } ?? [])
        }
        if device.hasClasses("Audio/Source"), properties["device.api"] == "alsa" || properties["alsa.card"] != nil,
           let element = try? device.makeElement(), let alsaName = try? element.property("device").stringValue {
            let (id, name) = alsaIdentity(alsaName, displayName: device.displayName)
            return CaptureDevice(id: id, name: name, mediaType: .audio, busInfo: properties["alsa.card_name"],
                                 source: .alsa(device: alsaName))
        }
        return nil
    }

    /// The names the desktop's sound server gives its capture sources (`pactl list short sources`), monitors
    /// of outputs left out: a microphone named so is recorded through the server.
    public static func soundServerSourceNames() -> Set<String> {
        SoundServer.isRunning() ? Set(soundServerSources().map(\.source)) : []
    }

    /// The server's capture sources with the name pulsesrc takes for each (what its device sets).
    private static func soundServerSources() -> [(device: Device, source: String)] {
        (DeviceProvider(factory: "pulsedeviceprovider")?.devices ?? []).compactMap { device in
            guard device.hasClasses("Audio/Source"), device.properties["device.class"] != "monitor", let element = try? device.makeElement(),
                  let source = try? element.property("device").stringValue else { return nil }
            return (device, source)
        }
    }

    /// "hw:1,0" becomes id "alsa:Loopback,0" (the card's id survives reordering of card numbers).
    static func alsaIdentity(_ device: String, displayName: String) -> (id: String, name: String) {
        (CaptureDevice.alsaID(of: device) ?? "alsa:\(device)", displayName)
    }

    /// Two entries for the same node (a monitor can list a device twice) keep the first.
    private static func uniqueIDs(_ devices: [CaptureDevice]) -> [CaptureDevice] {
        var seen = Set<String>()
        return devices.filter { seen.insert($0.id).inserted }
    }

    /// The modes in a device's caps: raw formats by name, JPEG as "MJPG"; one entry per format and size.
    /// A range of sizes (a camera that scales) gives its largest, or with `near` the size in it closest
    /// to that mode's, and a range of rates its ends, or the rate in it closest to the mode's.
    public static func formats(_ caps: Caps, near mode: CaptureMode? = nil) -> [VideoFormat] {
        var result: [VideoFormat] = []
        for structure in caps.structures {
            let pixelFormats: [String]
            switch structure.name {
            case "image/jpeg": pixelFormats = ["MJPG"]
            case "video/x-raw": pixelFormats = strings(structure["format"])
            default: continue
            }
            guard let width = size(structure["width"], near: mode?.width), let height = size(structure["height"], near: mode?.height) else { continue }
            let rates = frameRates(structure["framerate"], near: mode?.frameRate)
            for pixelFormat in pixelFormats {
                if let index = result.firstIndex(where: { $0.pixelFormat == pixelFormat && $0.width == width && $0.height == height }) {
                    result[index].frameRates = Array(Set(result[index].frameRates + rates)).sorted(by: >)
                } else {
                    result.append(VideoFormat(pixelFormat: pixelFormat, width: width, height: height, frameRates: rates))
                }
            }
        }
        return result
    }

    private static func strings(_ field: Structure.Field?) -> [String] {
        switch field {
        case .value(let value)?: return value.stringValue.map { [$0] } ?? []
        case .list(let items)?: return items.flatMap { strings($0) }
        default: return []
        }
    }

    private static func size(_ field: Structure.Field?, near target: Int?) -> Int? {
        switch field {
        case .value(let value)?: return value.intValue
        case .intRange(let range)?: return target.map { min(max($0, range.lowerBound), range.upperBound) } ?? range.upperBound
        case .list(let items)?:
            let sizes = items.compactMap { size($0, near: target) }
            guard let target else { return sizes.max() }
            return sizes.min { abs($0 - target) < abs($1 - target) }
        default: return nil
        }
    }

    private static func frameRates(_ field: Structure.Field?, near target: Double? = nil) -> [Double] {
        switch field {
        case .fractionRange(let low, let high)? where target != nil:
            return [min(max(target!, low.value), high.value)].filter { $0 > 0 }
        case .value(.fraction(let numerator, let denominator))?:
            return denominator == 0 ? [] : [Double(numerator) / Double(denominator)]
        case .list(let items)?:
            return Array(Set(items.flatMap { frameRates($0, near: target) })).sorted(by: >)
        case .fractionRange(let low, let high)?:
            return [high.value, low.value].filter { $0 > 0 }
        default:
            return []
        }
    }
}
