import CaptureModel
import Foundation
import GStreamer
import Locking

/// Screens shared through the desktop's portal, by input id. The share is asked for when the session
/// first starts a graph that reads it (the desktop may ask the user which screen), kept across
/// structural commits so the user is asked once, and ended when the session stops.
package final class ScreenShares: @unchecked Sendable {
    private let grants = Locked<[String: ScreenCastPortal.Grant]>([:])
    /// Set by a stop that arrives while the desktop asks the user which screen to share.
    private let cancelled = Locked(false)

    package init() {}

    /// Asks the portal for every portal screen of `configuration` not shared yet.
    package func share(for configuration: SessionConfiguration) async throws {
        cancelled.withValue { $0 = false }
        for input in configuration.inputs {
            guard case .screencast(let showsPointer) = input.device.source, grants.value[input.id] == nil else { continue }
            let grant: ScreenCastPortal.Grant
            do {
                grant = try await ScreenCastPortal.share(showsPointer: showsPointer, restoreToken: ScreenShareToken.load(),
                                                         isCancelled: { [cancelled] in cancelled.value })
            } catch {
                throw CaptureError.screenShare(input: input.id, cause: error)
            }
            // The token lets the next recording share the same screen without asking.
            ScreenShareToken.save(grant.restoreToken)
            grants.withValue { $0[input.id] = grant }
        }
    }

    /// A start still waiting for the user to pick a screen gives up.
    package func cancelAsking() {
        cancelled.withValue { $0 = true }
    }

    /// The share of an input's screen, once granted.
    func grant(for inputID: String) -> ScreenCastPortal.Grant? { grants.value[inputID] }

    /// Ends every share (the desktop stops showing that the screen is shared).
    package func endAll() {
        let shares = grants.withValue { shares in
            defer { shares = [:] }
            return shares
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
