import Foundation

/// Work done every `interval` on a queue of its own (off Swift's cooperative threads: it may wait on a
/// device), until cancelled.
package final class RepeatingTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer

    package init(every interval: DispatchTimeInterval, label: String, _ work: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler(handler: work)
        source.resume()
    }

    package func cancel() { source.cancel() }
}
