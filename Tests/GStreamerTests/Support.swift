import Foundation
import XCTest
@testable import GStreamer

// Shared helpers: waiting on buses and appsinks with timeouts, reading pixels, and `Locking`'s boxes.

/// Events pushed from any thread (GStreamer callbacks) and awaited by a test with a timeout.
final class Events<Value: Sendable>: Sendable {
    let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .unbounded) }

    func send(_ value: Value) { continuation.yield(value) }
    func finish() { continuation.finish() }

    /// The next event matching `predicate`, failing the test if none comes within `timeout`.
    @discardableResult
    func next(
        _ what: String, timeout: Duration = .seconds(5),
        file: StaticString = #filePath, line: UInt = #line,
        where predicate: @escaping @Sendable (Value) -> Bool = { _ in true }
    ) async throws -> Value {
        guard let value = try await stream.first(timeout: timeout, where: predicate) else {
            XCTFail("timed out waiting for \(what)", file: file, line: line)
            throw GStreamerError.timeout("waiting for \(what)")
        }
        return value
    }
}

/// The first message matching `predicate`, failing the test (and throwing) if none comes within `timeout`.
/// An error message from the pipeline fails at once with its text, unless the predicate accepts it.
@discardableResult
func waitForMessage(
    _ messages: AsyncStream<Message>, _ what: String, timeout: Duration = .seconds(5),
    file: StaticString = #filePath, line: UInt = #line,
    where predicate: @escaping @Sendable (Message) -> Bool
) async throws -> Message {
    let found = try await messages.first(timeout: timeout) { predicate($0) || $0.isError }
    guard let found else {
        XCTFail("timed out waiting for \(what)", file: file, line: line)
        throw GStreamerError.timeout("waiting for \(what)")
    }
    if found.isError && !predicate(found) {
        XCTFail("pipeline error while waiting for \(what): \(found)", file: file, line: line)
        throw GStreamerError.pipelineError(source: found.sourcePath ?? "?", message: "\(found.kind)", debug: nil)
    }
    return found
}

/// Plays `pipeline` until end-of-stream, failing on a pipeline error or after `timeout`.
func playToEndOfStream(
    _ pipeline: Pipeline, timeout: Duration = .seconds(10),
    file: StaticString = #filePath, line: UInt = #line
) async throws {
    let messages = pipeline.bus.messages()
    try pipeline.setState(.playing)
    try await waitForMessage(messages, "end of stream on '\(pipeline.name)'", timeout: timeout, file: file, line: line) {
        $0.isEndOfStream
    }
}

/// Waits for a condition that becomes true on another thread (threads exiting, objects finalized),
/// checking every few milliseconds until `timeout`.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Threads of this process, for checking that torn-down pipelines leave none behind.
func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
}

/// The kernel's id of the calling thread.
func currentThreadID() -> Int {
    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
    return Int(link.split(separator: "/").last ?? "") ?? -1
}

/// The calling thread's name as the system shows it (in debuggers, top, /proc).
func currentThreadName() -> String {
    let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
    return name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
}

func threadIsRunning(_ id: Int) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
}

/// A fresh path in the temporary directory, removed when the test ends.
func temporaryPath(_ name: String, for test: XCTestCase) -> String {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("pipcam-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    return directory.appendingPathComponent(name).path
}

extension Message {
    var isEndOfStream: Bool {
        if case .eos = kind { return true }
        return false
    }

    var isWarning: Bool {
        if case .warning = kind { return true }
        return false
    }

    var isQoS: Bool {
        if case .qos = kind { return true }
        return false
    }

    /// The payload of an application message.
    var application: Structure? {
        if case .application(let structure) = kind { return structure }
        return nil
    }

    /// The payload of an element message.
    var element: Structure? {
        if case .element(let structure) = kind { return structure }
        return nil
    }

    var stateChange: (old: State, new: State)? {
        if case .stateChanged(let old, let new, _) = kind { return (old, new) }
        return nil
    }
}

// MARK: pixels

/// An 8-bit RGB colour read from a packed RGB/RGBx frame.
struct Color: Equatable, CustomStringConvertible {
    let red: UInt8, green: UInt8, blue: UInt8

    /// Colour conversion through YUV is not exact, so colours are compared loosely.
    var isRed: Bool { red > 200 && green < 60 && blue < 60 }
    var isBlack: Bool { red < 40 && green < 40 && blue < 40 }
    var isWhite: Bool { red > 230 && green > 230 && blue > 230 }

    var description: String { "rgb(\(red), \(green), \(blue))" }
}

extension Sample {
    /// The colour at (x, y) of a packed RGB-family frame, or nil if the sample is not raw video.
    func color(x: Int, y: Int) -> Color? {
        try? withVideoFrame { frame in
            let bytes = frame.packedPixel(x: x, y: y)
            return Color(red: bytes[0], green: bytes[1], blue: bytes[2])
        }
    }
}

/// 16-bit samples of an S16LE audio buffer.
extension Sample {
    func int16Samples() -> [Int16] {
        (try? withBytes { Array($0.bindMemory(to: Int16.self)) }) ?? []
    }
}

/// Every element of `stream` until it ends, failing the test if it has not ended within `timeout`.
func collectAll<T: Sendable>(
    _ stream: AsyncStream<T>, _ what: String, timeout: Duration = .seconds(10),
    file: StaticString = #filePath, line: UInt = #line
) async throws -> [T] {
    let all = try await withThrowingTaskGroup(of: [T]?.self) { group in
        group.addTask {
            var items: [T] = []
            for await item in stream { items.append(item) }
            return Task.isCancelled ? nil : items
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard let all else {
        XCTFail("\(what) did not end within \(timeout)", file: file, line: line)
        throw GStreamerError.timeout("waiting for \(what) to end")
    }
    return all
}
