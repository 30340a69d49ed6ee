import CaptureModel
import Foundation
import Locking

/// Who watches the preview's pictures (the web page's live view), so that their branch runs only while
/// someone does: the first watcher opens it and the last one to go closes it, each a live commit of
/// `PreviewOutput.isWatched`. Commits are made one at a time, and again until the configuration says what
/// the count says, so watchers that come and go together leave it right.
final class PreviewWatchers: Sendable {
    private let count = Locked(0)
    private let settling = Locked((busy: false, again: false))

    func add(to session: CaptureSession) {
        count.withValue { $0 += 1 }
        settle(session)
    }

    func remove(from session: CaptureSession) {
        count.withValue { $0 -= 1 }
        settle(session)
    }

    private func settle(_ session: CaptureSession) {
        let starts = settling.withValue { state in
            if state.busy { state.again = true; return false }
            state.busy = true
            return true
        }
        guard starts else { return }
        Task { [count, settling, weak session] in
            while let session {
                let wanted = count.value > 0
                if let preview = session.configuration.previewOutput, preview.isWatched != wanted {
                    try? await session.update { $0.previewOutput?.isWatched = wanted }
                }
                let done = settling.withValue { state in
                    if state.again { state.again = false; return false }
                    state.busy = false
                    return true
                }
                if done { return }
            }
            settling.withValue { $0 = (false, false) }
        }
    }
}

extension PreviewWatchers {
    /// `session`'s preview pictures from now on, the newest kept for a slow reader, counted as a watcher
    /// until the stream ends.
    func pictures(of session: CaptureSession) throws -> AsyncStream<PreviewPicture> {
        guard let pictures = session.configuration.previewOutput?.pictures else {
            throw CaptureError.invalidConfiguration("the session makes no preview pictures (give it a preview output with pictures)")
        }
        let source = pictures.stream()
        add(to: session)
        let (stream, continuation) = AsyncStream.makeStream(of: PreviewPicture.self, bufferingPolicy: .bufferingNewest(1))
        let relay = Task {
            for await picture in source { continuation.yield(picture) }
            continuation.finish()
        }
        continuation.onTermination = { [weak self, weak session] _ in
            relay.cancel()
            if let self, let session { self.remove(from: session) }
        }
        return stream
    }
}
