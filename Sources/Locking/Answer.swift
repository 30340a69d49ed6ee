import Foundation

/// One answer that one thread gives and another waits for, for at most a time: a device's open, an
/// encoder's trial, a program's exit, a server's first moments. The first answer counts; later ones
/// are ignored. The one way pipcam waits on another thread with a limit.
public final class Answer<Value: Sendable>: @unchecked Sendable {
    private let given = Locked<Value?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    public init() {}

    /// Gives the answer; false when one was given before (this one is dropped).
    @discardableResult
    public func give(_ value: Value) -> Bool {
        let first = given.withValue { given in
            guard given == nil else { return false }
            given = value
            return true
        }
        if first { arrived.signal() }
        return first
    }

    /// The answer, when it comes within `limit`; nil when it has not by then.
    public func wait(atMost limit: Duration) -> Value? {
        let nanoseconds = max(0, limit.components.seconds) * 1_000_000_000 + max(0, limit.components.attoseconds) / 1_000_000_000
        guard arrived.wait(timeout: .now() + .nanoseconds(Int(min(nanoseconds, Int64(Int.max))))) == .success else { return given.value }
        arrived.signal()
        return given.value
    }
}

extension Blocking {
    /// `body` on a thread of its own named `name`, waited for at most `limit`: nil when it has not
    /// returned by then (a driver's open or a state change that hangs), and it is left to finish.
    public static func within<T: Sendable>(_ limit: Duration, _ name: String, _ body: @escaping @Sendable () -> T) -> T? {
        let answer = Answer<T>()
        NamedThread.start(name) { answer.give(body()) }
        return answer.wait(atMost: limit)
    }
}
