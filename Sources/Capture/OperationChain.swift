import CaptureGraph
import CaptureModel
import Foundation

/// Runs async operations one after another, in the order they were asked for: a session's commits,
/// starts and stops must never interleave (two structural commits at once would open the same devices
/// twice).
final class OperationChain: @unchecked Sendable {
    private let lock = NSLock()
    private var tail: Task<Void, Never>?

    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task: Task<T, any Error> = lock.withLock {
            let previous = tail
            let task = Task { () async throws -> T in
                await previous?.value
                return try await body()
            }
            tail = Task { _ = try? await task.value }
            return task
        }
        return try await task.value
    }
}
