import CGStreamer
import CPipcamGst
import Foundation
import Locking

/// A pipeline's bus with exactly one reader: a dedicated thread pops every message in order and hands
/// it to each subscriber. Subscribers are AsyncStreams (unbounded, so nothing is dropped) or closures
/// (which run on the bus thread and must return quickly). Messages posted before the first subscriber
/// wait in the bus until it arrives.
public final class Bus: @unchecked Sendable {
    private let pump: BusPump

    init(adopting raw: UnsafeMutablePointer<GstBus>) {
        pump = BusPump(raw)
    }

    deinit { pump.stop() }

    /// Every message from now on, in order, until the bus goes away.
    public func messages() -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .unbounded)
        let id = pump.add { continuation.yield($0) } onStop: { continuation.finish() }
        continuation.onTermination = { [weak pump] _ in pump?.remove(id) }
        return stream
    }

    /// Calls `handler` on the bus thread for every message until the subscription is cancelled.
    public func subscribe(_ handler: @escaping @Sendable (Message) -> Void) -> BusSubscription {
        let id = pump.add(handler) {}
        return BusSubscription { [weak pump] in pump?.remove(id) }
    }

    /// Posts an application message from any thread; subscribers get it in order with everything else.
    /// Returns false when the bus is flushing (its pipeline is stopped) and the message was dropped.
    @discardableResult
    public func post(applicationMessage name: String, fields: KeyValuePairs<String, any PropertyValueConvertible> = [:]) throws -> Bool {
        guard let structure = Structure.make(name, fields: fields.map { ($0.key, $0.value.propertyValue) }) else {
            throw GStreamerError.invalidStructureName(name)
        }
        return pump.post(gst_message_new_application(nil, structure))
    }
}

extension Bus {
    /// Returns once every message posted before the call has been handed to the subscribers: messages
    /// are delivered in order, so a marker posted now arrives after all of them.
    public func flush(timeout: Duration = .seconds(2)) async {
        let messages = messages()
        guard (try? post(applicationMessage: "pipcam-bus-flush")) == true else { return }
        _ = try? await messages.first(timeout: timeout) { message in
            if case .application(let structure) = message.kind { return structure.name == "pipcam-bus-flush" }
            return false
        }
    }
}

/// Ends a closure subscription when cancelled or released.
public final class BusSubscription: @unchecked Sendable {
    private var cancelAction: (() -> Void)?
    private let lock = NSLock()

    init(_ cancel: @escaping () -> Void) { cancelAction = cancel }

    public func cancel() {
        lock.lock()
        let action = cancelAction
        cancelAction = nil
        lock.unlock()
        action?()
    }

    deinit { cancel() }
}

/// The bus reader thread and its subscriber table.
final class BusPump: @unchecked Sendable {
    private struct Subscriber {
        let deliver: @Sendable (Message) -> Void
        let stop: @Sendable () -> Void
    }

    private let bus: UnsafeMutablePointer<GstBus>
    private let lock = NSLock()
    private var subscribers: [Int: Subscriber] = [:]
    private var nextID = 0
    private var started = false
    private var stopped = false

    init(_ bus: UnsafeMutablePointer<GstBus>) {
        self.bus = bus
        pc_bus_note_origins(bus)
    }

    deinit { gst_object_unref(bus) }

    func add(_ deliver: @escaping @Sendable (Message) -> Void, onStop: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        subscribers[nextID] = Subscriber(deliver: deliver, stop: onStop)
        if !started && !stopped {
            started = true
            NamedThread.start("gst-bus") { [self] in run() }
        }
        return nextID
    }

    func remove(_ id: Int) {
        lock.lock()
        subscribers[id] = nil
        lock.unlock()
    }

    func post(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        gst_bus_post(bus, message) != 0
    }

    /// Wakes the reader with a private message so it can exit; the thread keeps the pump alive until then.
    func stop() {
        lock.lock()
        stopped = true
        let wasStarted = started
        let remaining = subscribers.values
        subscribers = [:]
        lock.unlock()
        remaining.forEach { $0.stop() }
        if wasStarted { wakeReader() }
    }

    /// A pipeline set to NULL (or a stopped device monitor) flushes its bus, which drops whatever is
    /// posted, this wake-up too: the reader would then wait forever, holding its thread and the bus.
    private func wakeReader() {
        if gst_bus_post(bus, pc_message_new_wake(nil)) == 0 {
            gst_bus_set_flushing(bus, 0)
            gst_bus_post(bus, pc_message_new_wake(nil))
        }
    }

    private func run() {
        while true {
            guard let raw = gst_bus_timed_pop(bus, pc_clock_time_none()) else { continue }
            defer { pc_message_unref(raw) }
            lock.lock()
            let isStopped = stopped
            let current = Array(subscribers.values)
            lock.unlock()
            if isStopped { return }
            let message = Message(raw)
            for subscriber in current { subscriber.deliver(message) }
        }
    }
}

extension AsyncStream where Element: Sendable {
    /// The first element matching `predicate`, or nil if none arrives within `timeout` or the stream ends.
    public func first(timeout: Duration, where predicate: @escaping @Sendable (Element) -> Bool) async throws -> Element? {
        try await withThrowingTaskGroup(of: Element?.self) { group in
            group.addTask {
                for await element in self where predicate(element) { return element }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let result = try await group.next() ?? nil
            group.cancelAll()
            return result
        }
    }
}
