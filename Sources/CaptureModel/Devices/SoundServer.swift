import Foundation

/// The desktop's sound server: PulseAudio, or PipeWire's stand-in for it (pipewire-pulse), reached through
/// the same socket.
public enum SoundServer {
    /// Whether a server answers where clients look for one: PULSE_SERVER, else the user's runtime folder.
    public static func isRunning(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let server = environment["PULSE_SERVER"], !server.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return stat("\(runtime)/pulse/native", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }
}
