import Foundation

/// A value shared between GStreamer's threads (streaming, bus) and Swift code, behind a lock.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Reads and changes the value in one step.
    @discardableResult
    public func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
