import Foundation

/// Runs a blocking call (a GStreamer wait, a question to the desktop) on a thread of its own and resumes
/// the caller when it returns, so that waits of seconds never hold a thread of Swift's cooperative pool.
public enum Blocking {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            NamedThread.start("pipcam-blocking-wait") {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
