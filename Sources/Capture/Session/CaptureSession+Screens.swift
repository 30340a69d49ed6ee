import CaptureModel
import Foundation
import GStreamer

/// Screens shared through the desktop's portal. The share is asked for when the session first starts a
/// graph that reads it (the desktop may ask the user which screen), kept across structural commits so
/// the user is asked once, and ended when the session stops.
extension CaptureSession {
    /// The shares the configuration's portal screens need, asking the portal for any not shared yet.
    func shareScreens(for configuration: SessionConfiguration) async throws -> [String: ScreenCastPortal.Grant] {
        screenShareCancelled.withValue { $0 = false }
        for input in configuration.inputs {
            guard case .screencast(let showsPointer) = input.device.source, locked({ screens[input.id] }) == nil else { continue }
            let grant: ScreenCastPortal.Grant
            do {
                grant = try await ScreenCastPortal.share(showsPointer: showsPointer, restoreToken: ScreenShareToken.load(),
                                                         isCancelled: { [weak self] in self?.screenShareCancelled.value ?? true })
            } catch {
                throw CaptureError.screenShare(input: input.id, cause: error)
            }
            // The token lets the next recording share the same screen without asking.
            ScreenShareToken.save(grant.restoreToken)
            locked { screens[input.id] = grant }
        }
        return locked { screens }
    }

    /// Ends every share (the desktop stops showing that the screen is shared).
    func endScreenShares() {
        let shares = locked {
            defer { screens = [:] }
            return screens
        }
        shares.values.forEach { $0.close() }
    }
}

/// The desktop's restore token for the last screen shared, so the next recording shares it again without
/// asking. The file is `$XDG_STATE_HOME/pipcam/screen-share-token` (`~/.local/state/pipcam/…` without it);
/// delete it to be asked again.
enum ScreenShareToken {
    static var file: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return base + "/pipcam/screen-share-token"
    }

    static func load() -> String? {
        (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
    }

    /// A token that cannot be stored costs a question next time, nothing more. Only its owner may read it:
    /// it lets a program share the screen without asking.
    static func save(_ token: String?) {
        guard let token else { return }
        try? FileManager.default.createDirectory(atPath: URL(fileURLWithPath: file).deletingLastPathComponent().path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
