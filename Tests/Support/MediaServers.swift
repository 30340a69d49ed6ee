import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The servers the streaming tests send to, started for real on 127.0.0.1, in a test's scratch folder, as
/// the user running the tests: nginx with its RTMP module (what live platforms' ingest speaks), and ffmpeg
/// as an SRT receiver (pipcam calls it) and an SRT puller (pipcam listens). A real server catches what a
/// fake one would agree with: a handshake pipcam gets wrong, a stream another program cannot read.
///
/// A server is ready when its own process holds its port, as /proc tells: never after a fixed sleep, and
/// never by connecting, which could reach another program that took the port between `freeLocalPort` and
/// the server's bind (and a UDP port cannot be connected to at all). Each wait has a bound, `timeout`.
public enum MediaServers {
    /// What the servers run, for the package test: `install-deps --tests` must bring each. A name is a
    /// program found as `locate` finds it, a path is a file.
    /// With tmux, the terminal the status line's meters are read from; ip, which makes the fleet test's
    /// network namespaces; and the object store's programs.
    public static var programs: [String] {
        ["nginx", RTMPServer.module, "ffmpeg", "tmux", "ip"] + NetworkCameraServer.programs + WebClients.programs + ObjectStore.programs
    }

    /// How long a server may take to be ready, or to end once asked, in seconds: far more than any needs,
    /// so that only a server that will never be ready fails its test, and it fails rather than hangs.
    public static let timeout = 10.0

    /// A program's path: on PATH, or in the sbin folders, where nginx is and which a user's PATH on Debian
    /// leaves out.
    public static func locate(_ program: String) -> String? {
        if program.hasPrefix("/") { return FileManager.default.fileExists(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        return folders.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Polls `ready` until it holds. When the program ends first, or `timeout` passes (the program is
    /// then killed), throws with what the program printed. A server slower to start than these gives its
    /// own bound.
    static func wait(for what: String, of command: RunningCommand, within timeout: Double = MediaServers.timeout,
                     until ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !ready() {
            guard command.isRunning else {
                let result = command.wait()
                throw ProbeError("\(what) ended before it was ready (status \(result.status)): \(result.error)")
            }
            guard Date() < deadline else {
                let result = command.end(with: SIGKILL)
                throw ProbeError("\(what) was not ready within \(Int(timeout)) s: \(result.error)")
            }
            usleep(20_000)
        }
    }

    /// Whether `command`'s process holds a socket bound to `port` (for TCP, listening on it), read from
    /// /proc/PID/net/{tcp,udp}[6] (each socket's port and inode, in the process's own network namespace)
    /// and /proc/PID/fd (the process's sockets' inodes).
    static func holds(_ command: RunningCommand, port: Int, udp: Bool) -> Bool {
        let folder = "/proc/\(command.processIdentifier)/fd"
        let inodes = Set(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { fd -> Substring? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return target.dropFirst("socket:[".count).dropLast()
        })
        guard !inodes.isEmpty else { return false }
        for table in udp ? ["udp", "udp6"] : ["tcp", "tcp6"] {
            let text = (try? String(contentsOfFile: "/proc/\(command.processIdentifier)/net/\(table)", encoding: .utf8)) ?? ""
            // "sl local_address rem_address st … uid timeout inode": "0100007F:1F90 … 0A" is 127.0.0.1:8080 listening.
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, let local = fields[1].split(separator: ":").last,
                      Int(local, radix: 16) == port, inodes.contains(fields[9]) else { continue }
                if udp || fields[3] == "0A" { return true }
            }
        }
        return false
    }
}

/// A port on 127.0.0.1 that nothing uses now, from the kernel (bind to port 0, read the port, close), so
/// tests running side by side never share a fixed one. `udp` for SRT, whose ports are UDP ones.
public func freeLocalPort(udp: Bool = false) -> Int {
    let (fd, port) = boundLocalSocket(udp: udp)
    close(fd)
    return port
}

/// A socket bound to 127.0.0.1 on a port the kernel picks, and that port; a TCP one `listening` holds
/// the port as a server does. The caller closes it.
public func boundLocalSocket(udp: Bool = false, listening: Bool = false) -> (socket: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
    precondition(fd >= 0, "socket: \(String(cString: strerror(errno)))")
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && (!listening || listen(fd, 1) == 0)
        }
    }
    precondition(bound, "bind to 127.0.0.1:0: \(String(cString: strerror(errno)))")
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// An RTMP server (nginx with libnginx-mod-rtmp) that records what is published to it, a FLV file per
/// stream key, in application `live`.
///
/// nginx runs in the foreground as a single process (`daemon off; master_process off`), as the user
/// running the tests: its configuration, pid file, log and recordings are in `folder`, and it reads and
/// writes nothing under /etc/nginx or /var (the RTMP module's access log, on by default in /var/log/nginx,
/// is off; with no `http` block no temporary folder in /var/lib/nginx is made).
///
/// Each start is a run, and each run records into a folder of its own: a test that restarts the server
/// (an ingest that went away and came back) reads what each run received (`recordedFiles`). Within a run,
/// a publisher that reconnects under the same key is appended to the same file (`record_append`, nginx
/// continuing the timestamps), where nginx would otherwise start the file over and hide what came before.
public final class RTMPServer: @unchecked Sendable {
    /// The RTMP module, from libnginx-mod-rtmp.
    public static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"

    public let folder: String
    public let port: Int
    /// The address it listens on, and what it is started with: `ip netns exec NAME` runs it in a network
    /// namespace of a test's own.
    private let address: String, launcher: [String]

    private struct State: Sendable {
        var command: RunningCommand?
        var runs = 0
    }
    private let state = Locked(State())

    /// Starts nginx on `port` (one the kernel says is free, when nil) and waits until it listens.
    public init(folder: String, port: Int? = nil, address: String = "127.0.0.1", launcher: [String] = []) throws {
        self.folder = folder
        self.port = port ?? freeLocalPort()
        self.address = address
        self.launcher = launcher
        try start()
    }

    deinit { stop() }

    /// Where a publisher sends the stream `key`: "rtmp://127.0.0.1:PORT/live/KEY".
    public func url(app: String = "live", key: String) -> String { "rtmp://127.0.0.1:\(port)/\(app)/\(key)" }

    /// What the first run recorded for `key` (each run's: `recordedFiles`).
    public func recordedFile(key: String) -> String { "\(recordings(run: 1))/\(key).flv" }

    /// What each run recorded for `key`, the first run's first; a run that recorded nothing for it is left out.
    public func recordedFiles(key: String) -> [String] {
        (1...max(state.value.runs, 1)).map { "\(recordings(run: $0))/\(key).flv" }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// nginx's log, of every run: each connection, `publish: name='KEY'` and disconnect, to count a
    /// publisher's reconnections.
    public var log: String { (try? String(contentsOfFile: "\(folder)/error.log", encoding: .utf8)) ?? "" }

    /// Ends nginx, killing it if it has not ended within `MediaServers.timeout`. SIGQUIT, which in a
    /// single process is no more graceful than SIGTERM: either ends nginx at once, without closing the
    /// publishers' sessions. The recording is whole all the same (nginx writes each tag at once, unbuffered,
    /// and the FLV has nothing to finish), except that the header's flags still say audio and video
    /// (closing would set them to the streams there were).
    public func stop() {
        let command = state.withValue { state in
            defer { state.command = nil }
            return state.command
        }
        _ = command?.end(with: SIGQUIT)
    }

    /// Stops nginx in its tracks (SIGSTOP) or lets it go on (SIGCONT): a server, or the network to it,
    /// that stalls without closing anything.
    public func freeze(_ frozen: Bool) {
        state.withValue { $0.command }?.signal(frozen ? SIGSTOP : SIGCONT)
    }

    /// Stops nginx if it runs and starts it again on the same port, recording into a new run's folder.
    public func restart() throws {
        stop()
        try start()
    }

    private func recordings(run: Int) -> String { run == 1 ? "\(folder)/recorded" : "\(folder)/recorded-\(run)" }

    private func start() throws {
        guard let nginx = MediaServers.locate("nginx"), FileManager.default.fileExists(atPath: Self.module) else {
            throw ProbeError("nginx or its RTMP module is not installed: run scripts/install-deps --tests")
        }
        let run = state.withValue { state in
            state.runs += 1
            return state.runs
        }
        let recorded = recordings(run: run)
        try FileManager.default.createDirectory(atPath: recorded, withIntermediateDirectories: true)
        let configuration = "\(folder)/nginx.conf"
        try """
            # Written by the tests' RTMPServer: one process in the foreground, everything in this folder.
            load_module "\(Self.module)";
            daemon off;
            master_process off;
            pid "\(folder)/nginx.pid";
            error_log "\(folder)/error.log" info;
            events {}
            rtmp {
                access_log off;
                server {
                    listen \(address):\(port);
                    application live {
                        live on;
                        record all;
                        record_path "\(recorded)";
                        record_unique off;
                        record_append on;
                    }
                }
            }

            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        // -e: the log nginx writes to before it has read the configuration (on Debian stderr already, but
        // /var/log/nginx/error.log where nginx was built otherwise).
        let command = try Command.start(launcher + [nginx, "-p", folder + "/", "-c", configuration, "-e", "\(folder)/error.log"])
        try MediaServers.wait(for: "nginx on \(address):\(port) (its log: \(folder)/error.log)", of: command) {
            MediaServers.holds(command, port: port, udp: false)
        }
        state.withValue { $0.command = command }
    }
}

/// An SRT listener on 127.0.0.1 that pipcam calls (`srt://127.0.0.1:PORT`), writing what it receives
/// into an MPEG-TS file: ffmpeg, so a program other than GStreamer reads pipcam's stream.
///
/// ffmpeg ends by itself once the caller closes the connection, the file finished; a second connection
/// needs a new receiver. SRT in live mode delivers nothing of the last moment a caller sent before
/// closing (about its latency: 4 frames at 30 fps here, from `gst-launch-1.0 … ! srtsink`).
public final class SRTReceiver: @unchecked Sendable {
    public let port: Int
    /// The received stream, growing while it arrives.
    public let file: String
    private let command: RunningCommand
    private let result = Locked<CommandResult?>(nil)

    /// Starts listening on `port` (a free one, when nil) and waits until ffmpeg holds it. `file` is a name
    /// in `folder` (or a full path). With `passphrase`, only a caller that has it gets in.
    /// `latency` (milliseconds) is how long it waits for lost packets sent again: four round trips of
    /// a lossy link.
    public init(folder: String, file: String = "received.ts", port: Int? = nil, passphrase: String? = nil, latency: Int? = nil) throws {
        let port = port ?? freeLocalPort(udp: true)
        let path = file.hasPrefix("/") ? file : "\(folder)/\(file)"
        self.port = port
        self.file = path
        // ffmpeg takes SRT's latency in microseconds.
        let options = latency.map { "&latency=\($0 * 1000)" } ?? ""
        let command = try Command.start(SRTCopy.arguments(from: "srt://127.0.0.1:\(port)?mode=listener" + options, passphrase: passphrase, to: path))
        try MediaServers.wait(for: "ffmpeg listening for SRT on 127.0.0.1:\(port)", of: command) {
            MediaServers.holds(command, port: port, udp: true)
        }
        self.command = command
    }

    deinit { stop() }

    /// Where pipcam sends: "srt://127.0.0.1:PORT".
    public var url: String { "srt://127.0.0.1:\(port)" }

    /// Ends ffmpeg (SIGINT, after which it finishes the file; killed if it has not ended within
    /// `MediaServers.timeout`) and returns what it printed. At once when the caller has already closed.
    @discardableResult
    public func stop() -> CommandResult {
        result.withValue { result in
            if result == nil { result = command.end(with: SIGINT) }
            return result!
        }
    }
}

/// Pulls pipcam's stream when pipcam is the SRT listener (`srt://:PORT`): ffmpeg calls 127.0.0.1:PORT and
/// writes what it receives into an MPEG-TS file.
///
/// A caller gives up at once when nothing listens yet (after a 1 s handshake timeout, set here), and pipcam
/// may still be starting: ffmpeg is started again until it stays connected and writes, within
/// `MediaServers.timeout`. It joins the stream where it is, so the file starts at pipcam's next keyframe
/// (the frames before it do not decode). ffmpeg ends by itself once pipcam closes the connection.
public final class SRTPuller: @unchecked Sendable {
    public let port: Int
    /// The pulled stream, growing while it arrives.
    public let file: String
    private let command: RunningCommand
    private let result = Locked<CommandResult?>(nil)

    /// Calls pipcam on `port` until it is connected and receiving. `file` is a name in `folder` (or a full path).
    public init(folder: String, file: String = "pulled.ts", port: Int, passphrase: String? = nil) throws {
        self.port = port
        let path = file.hasPrefix("/") ? file : "\(folder)/\(file)"
        self.file = path
        let arguments = SRTCopy.arguments(from: "srt://127.0.0.1:\(port)?mode=caller&connect_timeout=1000", passphrase: passphrase, to: path)
        // ffmpeg makes the file only once it is connected and has probed the stream: a file with something
        // in it is a connection that holds.
        let receiving = { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0 }
        let deadline = Date().addingTimeInterval(MediaServers.timeout)
        var attempts = 0, refusal = ""
        while true {
            try? FileManager.default.removeItem(atPath: path)
            let started = Date()
            let attempt = try Command.start(arguments)
            attempts += 1
            while attempt.isRunning, !receiving(), Date() < deadline { usleep(20_000) }
            if receiving() {
                command = attempt
                return
            }
            // The attempt the deadline cut short has said nothing yet: the one before it says why.
            let failed = attempt.end(with: SIGKILL)
            if !failed.error.isEmpty { refusal = failed.error }
            guard Date() < deadline else {
                throw ProbeError("ffmpeg could not pull SRT from 127.0.0.1:\(port) within \(Int(MediaServers.timeout)) s (\(attempts) attempts): \(refusal)")
            }
            // An ffmpeg that fails at once for another reason is not started again and again without pause.
            let pause = 0.25 - Date().timeIntervalSince(started)
            if pause > 0 { usleep(UInt32(pause * 1_000_000)) }
        }
    }

    deinit { stop() }

    /// Ends ffmpeg (SIGINT, after which it finishes the file; killed if it has not ended within
    /// `MediaServers.timeout`) and returns what it printed. At once when pipcam has already closed.
    @discardableResult
    public func stop() -> CommandResult {
        result.withValue { result in
            if result == nil { result = command.end(with: SIGINT) }
            return result!
        }
    }
}

/// ffmpeg copying an SRT stream into an MPEG-TS file as it arrives.
enum SRTCopy {
    /// - It probes the stream for half a second, not ffmpeg's five: until probing ends nothing is written,
    ///   and a test that stops the stream sooner would find no file at all.
    /// - Every packet is written through at once, so the file grows while the stream runs and even a killed
    ///   ffmpeg leaves what it had received.
    /// - `-map 0` keeps every stream pipcam sends, not one picture and one sound of ffmpeg's choosing.
    /// - The passphrase is an option, not part of the address: any character it has stays as it is.
    static func arguments(from input: String, passphrase: String?, to output: String) -> [String] {
        ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-analyzeduration", "500000"]
            + (passphrase.map { ["-passphrase", $0] } ?? [])
            + ["-i", input, "-map", "0", "-c", "copy", "-flush_packets", "1", "-f", "mpegts", output]
    }
}

extension RunningCommand {
    var isRunning: Bool { process.isRunning }

    /// Asks the program to end with `signal` and returns what it printed; kills it if it has not ended
    /// within `MediaServers.timeout`, so a stuck server fails its test instead of hanging the run.
    func end(with signal: Int32) -> CommandResult {
        if isRunning { self.signal(signal) }
        let deadline = Date().addingTimeInterval(MediaServers.timeout)
        while isRunning, Date() < deadline { usleep(20_000) }
        if isRunning { self.signal(SIGKILL) }
        return wait()
    }
}
