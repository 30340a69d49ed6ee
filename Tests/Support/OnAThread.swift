import Foundation

/// Runs `body`, blocking socket calls, on a thread of its own: a test's clients must not hold Swift's
/// concurrency threads, which the servers they talk to answer on.
public func onAThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result(catching: body)) }.start()
    }
}
