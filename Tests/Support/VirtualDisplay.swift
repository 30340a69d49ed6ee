import Foundation

/// A virtual X server (Xvfb) for tests that open windows, with screenshots of it. Without a window
/// manager, a window opens at the top-left corner at its picture's size.
public final class VirtualDisplay: @unchecked Sendable {
    /// The value for DISPLAY, e.g. ":3".
    public let name: String
    public let width: Int, height: Int
    private let process: Process

    /// Starts Xvfb on a display number of its own, and waits until it accepts connections.
    public init(width: Int = 1280, height: Int = 720) throws {
        guard let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: FileManager.default.isExecutableFile) else {
            throw ProbeError("Xvfb is not installed: run scripts/install-deps")
        }
        self.width = width
        self.height = height
        // Xvfb now and then fails to start while the previous test's server is still going away: try again.
        var attempt = 0
        while true {
            attempt += 1
            do {
                (process, name) = try Self.start(xvfb, width: width, height: height)
                break
            } catch where attempt < 3 {
                continue
            }
        }
    }

    private static func start(_ xvfb: String, width: Int, height: Int) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xvfb)
        // A display number of its own, far from :0 and from the one a previous test's server may still be
        // releasing (when Xvfb picks the lowest free number, a new server can lose its socket to the old).
        process.arguments = [":\(Int.random(in: 100...999))", "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Xvfb writes the display number once it accepts connections.
        var text = ""
        while !text.contains("\n") {
            guard let data = try output.fileHandleForReading.read(upToCount: 64), !data.isEmpty else {
                process.terminate()
                throw ProbeError("Xvfb exited before it was ready")
            }
            text += String(decoding: data, as: UTF8.self)
        }
        return (process, ":" + text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The whole screen now, as RGB.
    public func screenshot() throws -> DecodedFrame {
        let result = try Command.run(["sh", "-c",
            "ffmpeg -v error -f x11grab -video_size \(width)x\(height) -i '\(name)' -frames:v 1 -f rawvideo -pix_fmt rgb24 - | base64 -w0"])
        guard let data = Data(base64Encoded: result.output.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == width * height * 3 else {
            throw ProbeError("could not take a screenshot of \(name): \(result.error)")
        }
        return DecodedFrame(width: width, height: height, rgb: [UInt8](data))
    }

    /// Types `key` (an X key name: "s", "space", "Escape") into the window titled `window`, once it is open.
    public func press(_ key: String, inWindow window: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let found = try Command.run(["xdotool", "search", "--name", "^\(window)$"], environment: ["DISPLAY": name])
            if let id = found.output.split(separator: "\n").last {
                let sent = try Command.run(["xdotool", "key", "--window", String(id), key], environment: ["DISPLAY": name])
                guard sent.status == 0 else { throw ProbeError("xdotool could not press \(key): \(sent.error)") }
                return
            }
            guard Date() < deadline else { throw ProbeError("no window titled \(window) within \(timeout) s") }
            usleep(100_000)
        }
    }

    /// Closes the window titled `window` as a window manager's close button does: a WM_DELETE_WINDOW
    /// message to the window (xdotool has no way to send one, so Xlib is called through ctypes).
    public func close(window: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let found = try Command.run(["xdotool", "search", "--name", "^\(window)$"], environment: ["DISPLAY": name])
            if let id = found.output.split(separator: "\n").last {
                let sent = try Command.run(["python3", "-c", Self.sendDeleteWindow, String(id)], environment: ["DISPLAY": name])
                guard sent.status == 0 else { throw ProbeError("could not close \(window): \(sent.error)") }
                return
            }
            guard Date() < deadline else { throw ProbeError("no window titled \(window) within \(timeout) s") }
            usleep(100_000)
        }
    }

    private static let sendDeleteWindow = """
        import ctypes, sys
        x = ctypes.CDLL("libX11.so.6")
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XInternAtom.restype = ctypes.c_ulong
        x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
        x.XFlush.argtypes = x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        class Message(ctypes.Structure):
            _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                        ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                        ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("padding", ctypes.c_long * 12)]
        display = x.XOpenDisplay(None)
        if not display: sys.exit("cannot open the display")
        window = int(sys.argv[1])
        message = Message(type=33, send_event=1, display=display, window=window,
                          message_type=x.XInternAtom(display, b"WM_PROTOCOLS", 0), format=32)
        message.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
        if not x.XSendEvent(display, window, 0, 0, ctypes.byref(message)): sys.exit("XSendEvent failed")
        x.XFlush(display)
        x.XCloseDisplay(display)
        """

    /// Takes screenshots until one satisfies `condition`, or fails after `timeout` seconds with the last one.
    @discardableResult
    public func waitForScreen(timeout: Double = 20, _ description: String, _ condition: (DecodedFrame) -> Bool) throws -> DecodedFrame {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // A grab can fail while the server is busy with a client connecting; the next one is taken.
            do {
                let shot = try screenshot()
                if condition(shot) { return shot }
                guard Date() < deadline else { throw ProbeError("the screen did not show \(description) within \(timeout) s") }
            } catch let error as ProbeError where !error.description.hasPrefix("the screen did not show") {
                guard Date() < deadline else { throw error }
            }
            usleep(100_000)
        }
    }
}
