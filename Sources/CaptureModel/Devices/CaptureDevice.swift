/// Which way a camera faces, as AVFoundation's `AVCaptureDevice.Position`.
public enum DevicePosition: String, Sendable, Codable, CaseIterable {
    case front, back, external, unspecified
}

public enum MediaType: String, Sendable, Codable {
    case video, audio
}

/// A camera or microphone the session can capture from. Real devices come from the device monitor;
/// synthetic and file-backed ones let everything run (and be tested) without hardware.
public struct CaptureDevice: Sendable, Hashable, Identifiable, Codable {
    public enum Source: Sendable, Hashable, Codable {
        /// A V4L2 camera node, e.g. /dev/video0.
        case v4l2(path: String)
        /// An ALSA capture device, e.g. hw:Loopback,1,0.
        case alsa(device: String)
        /// A test pattern with a running clock (videotestsrc); bars and balls move unless `moving` is false.
        case testPattern(pattern: String, label: String, moving: Bool)
        /// A sine tone (audiotestsrc); silence at frequency 0.
        case tone(frequency: Double)
        /// A beep at each whole second of the pipeline's clock, heard when a "sync" camera flashes.
        case syncBeeps
        /// A source of the desktop's sound server (pulsesrc, which PipeWire serves too): the default input
        /// when `source` is nil (the headset or microphone picked in the desktop's settings), else the
        /// named one, e.g. a sound card the server holds for another program.
        case soundServer(source: String?)
        /// A recorded clip replayed in real time as if it were a live camera.
        case file(path: String)
        /// A camera PipeWire streams from for another program, shared through PipeWire (pipewiresrc):
        /// V4L2 lets one program at a time capture. `target` is the PipeWire node's name.
        case pipewire(target: String, v4l2Path: String)
        /// An X display's screen, or a region of it, captured as a camera (ximagesrc): the tutorial maker's
        /// screen with a face in a corner.
        case screen(display: String, region: ScreenRegion?, showsPointer: Bool)
        /// The screen the user shares through the desktop's portal (pipewiresrc): on Wayland, where no
        /// program may read the screen itself. The session asks for it when it starts.
        case screencast(showsPointer: Bool)
        /// A camera on the network (rtspsrc, srtsrc or souphttpsrc, decoded): see `NetworkCamera`.
        case network(NetworkCamera)
        /// The sound a network camera of the session sends with its pictures, as a microphone: `camera`
        /// is the camera's id. It comes over the camera's own connection, so it is lost and back with it.
        case cameraSound(camera: String)
    }

    /// Stable across reboots where the system allows: /dev/v4l/by-id link, then by-path, then the node;
    /// for ALSA the card id and device number.
    public let id: String
    public let name: String
    public let mediaType: MediaType
    public var position: DevicePosition
    public let busInfo: String?
    public let source: Source
    /// Modes the device can produce (cameras only). Empty means any size up to 8K the pipeline asks for.
    public let formats: [VideoFormat]

    public init(id: String, name: String, mediaType: MediaType, position: DevicePosition = .unspecified,
                busInfo: String? = nil, source: Source, formats: [VideoFormat] = []) {
        self.id = id
        self.name = name
        self.mediaType = mediaType
        self.position = position
        self.busInfo = busInfo
        self.source = source
        self.formats = formats
    }

    public var isCamera: Bool { mediaType == .video }

    /// A microphone that is hardware (a sound card, or a source of the desktop's sound server), which can
    /// fail or go away while recording, unlike a tone.
    public var isSoundDevice: Bool {
        switch source {
        case .alsa, .soundServer: true
        case .v4l2, .testPattern, .tone, .syncBeeps, .file, .pipewire, .screen, .screencast, .network, .cameraSound: false
        }
    }

    /// The kernel's name for the device, which users may give instead of its id: the V4L2 node of a camera
    /// (shared through PipeWire or not), the ALSA name of a sound card; nil for what has none.
    public var node: String? {
        switch source {
        case .v4l2(let path), .pipewire(_, let path): path
        case .alsa(let name): name
        case .testPattern, .tone, .syncBeeps, .soundServer, .file, .screen, .screencast, .network, .cameraSound: nil
        }
    }

    /// A synthetic camera: a moving test pattern (e.g. "ball", "smpte", "snow") with its label and a clock burnt in.
    public static func testPatternCamera(id: String, pattern: String = "smpte", label: String? = nil, moving: Bool = true,
                                         position: DevicePosition = .unspecified) -> CaptureDevice {
        CaptureDevice(id: id, name: "Test pattern \(pattern)", mediaType: .video, position: position,
                      source: .testPattern(pattern: pattern, label: label ?? id, moving: moving))
    }

    /// A synthetic microphone playing a sine tone; silence at no frequency.
    public static func toneMicrophone(id: String, frequency: Double, position: DevicePosition = .unspecified) -> CaptureDevice {
        CaptureDevice(id: id, name: frequency > 0 ? "Tone \(Int(frequency)) Hz" : "Silence", mediaType: .audio, position: position,
                      source: .tone(frequency: frequency))
    }

    /// A synthetic microphone beeping at each second, with the "sync" camera pattern's flashes.
    public static func syncMicrophone(id: String) -> CaptureDevice {
        CaptureDevice(id: id, name: "Sync beeps", mediaType: .audio, source: .syncBeeps)
    }

    /// An X display's screen (a display name such as ":0"), whole or a region of it, as a camera.
    public static func screenCamera(id: String, display: String, region: ScreenRegion? = nil, showsPointer: Bool = true) -> CaptureDevice {
        CaptureDevice(id: id, name: "Screen \(display)", mediaType: .video, source: .screen(display: display, region: region, showsPointer: showsPointer))
    }

    /// The screen the desktop's portal shares, as a camera.
    public static func screencastCamera(id: String, showsPointer: Bool = true) -> CaptureDevice {
        CaptureDevice(id: id, name: "Shared screen", mediaType: .video, source: .screencast(showsPointer: showsPointer))
    }

    /// A source of the desktop's sound server by its name, or its default input.
    public static func soundServerMicrophone(id: String, source: String?) -> CaptureDevice {
        CaptureDevice(id: id, name: source ?? "Default input", mediaType: .audio, source: .soundServer(source: source))
    }

    /// A camera on the network, named by its address with the password hidden.
    public static func networkCamera(id: String, _ camera: NetworkCamera) -> CaptureDevice {
        CaptureDevice(id: id, name: camera.shownAddress, mediaType: .video, source: .network(camera))
    }

    /// A network camera's sound, as a microphone.
    public static func cameraSound(id: String, camera: String) -> CaptureDevice {
        CaptureDevice(id: id, name: "Sound of camera \(camera)", mediaType: .audio, source: .cameraSound(camera: camera))
    }

    /// Whether the camera is on the network: it is kept through its drop-outs whatever the policy.
    public var isNetworkCamera: Bool {
        if case .network = source { return true }
        return false
    }

    /// Whether the camera's stream can carry sound beside its pictures, for a microphone to take.
    public var carriesSound: Bool {
        if case .network(let camera) = source { return camera.carriesSound }
        return false
    }

    /// A recorded clip replayed as a live camera.
    public static func fileCamera(id: String, path: String, position: DevicePosition = .unspecified) -> CaptureDevice {
        CaptureDevice(id: id, name: "Clip \(path)", mediaType: .video, position: position, source: .file(path: path))
    }
}

/// A rectangle of a screen, in the screen's pixels.
public struct ScreenRegion: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One mode a camera can deliver: pixel format, size and the frame rates offered at that size.
public struct VideoFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    /// GStreamer's name for raw formats (YUY2, NV12, …) or "MJPG" for motion JPEG.
    public var pixelFormat: String
    public var width: Int
    public var height: Int
    public var frameRates: [Double]

    public init(pixelFormat: String, width: Int, height: Int, frameRates: [Double]) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRates = frameRates
    }

    public var maxFrameRate: Double { frameRates.max() ?? 0 }
    public var isCompressed: Bool { pixelFormat == "MJPG" }
    public var pixels: Int { width * height }

    public var description: String {
        let rates = frameRates.sorted(by: >).map { VideoFormat.rateText($0) }.joined(separator: "/")
        return "\(pixelFormat) \(width)x\(height) @ \(rates) fps"
    }

    package static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(format: "%.1f", rate)
    }
}

import Foundation
