import CGStreamer
import CPipcamGst
import Foundation

extension Pad {
    /// The next buffer to pass this pad, with the pad's caps and segment, taken without disturbing the
    /// flow: the buffer is shared, not copied, and goes on downstream as usual. This is how a still is
    /// taken from a running camera at no cost until it is asked for. `skipping` lets that many buffers
    /// pass first (e.g. until a changed camera control shows in the picture).
    public func nextSample(skipping: Int = 0, timeout: Duration) async throws -> Sample {
        let catcher = SampleCatcher(skip: skipping)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Sample, Error>) in
                catcher.continuation = continuation
                let id = addRawBufferProbe { pad, buffer in
                    guard catcher.takeTurn() else { return catcher.isDone ? .remove : .pass }
                    catcher.finish(.success(Sample(adopting: pc_sample_from_pad(pad, buffer))))
                    return .remove
                }
                catcher.timer = Task { [self] in
                    guard (try? await Task.sleep(for: timeout)) != nil,
                          catcher.finish(.failure(GStreamerError.timeout("waiting for a buffer on pad '\(name)'"))) else { return }
                    removeProbe(id)
                }
            }
        } onCancel: {
            catcher.finish(.failure(CancellationError()))
        }
    }
}

/// The state shared by a one-shot probe and the task waiting for it; whichever finishes first wins.
private final class SampleCatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var skip: Int
    private var done = false
    var continuation: CheckedContinuation<Sample, Error>?
    var timer: Task<Void, Never>?

    init(skip: Int) { self.skip = skip }

    var isDone: Bool { lock.withLock { done } }

    /// True when this buffer is the one to take.
    func takeTurn() -> Bool {
        lock.withLock {
            guard !done else { return false }
            if skip > 0 { skip -= 1; return false }
            return true
        }
    }

    /// Hands over the result; false when one was handed over already.
    @discardableResult
    func finish(_ result: Result<Sample, Error>) -> Bool {
        let waiting: CheckedContinuation<Sample, Error>? = lock.withLock {
            guard !done else { return nil }
            done = true
            defer { continuation = nil }
            return continuation
        }
        guard let waiting else { return false }
        timer?.cancel()
        waiting.resume(with: result)
        return true
    }
}
