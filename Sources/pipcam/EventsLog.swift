import Capture
import Foundation

/// `record --events FILE.jsonl`: one JSON object per line with an "event" field: "pressure" samples
/// (about once a second: level, factors, pictures, dropped, skipped, step), and "throttle" / "restore"
/// steps with their new settings and reason, "interrupted" / "interruption-ended" when a device is lost
/// and back (input, reason, recording time). Lines are written as they happen, so a crash loses none.
final class EventsLog: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    init(path: String, force: Bool) throws {
        handle = try LogFile.create(path, force: force, what: "events")
    }

    func write(_ event: SessionEvent) {
        let line: String
        switch event {
        case .pressure(let sample): line = sample.jsonLine
        case .throttled(let step): line = step.jsonLine
        case .interrupted(let input, let reason, let time):
            line = JSONValue.object(["event": "interrupted", "input": .string(input), "reason": .string(reason.kind),
                                     "detail": .string(reason.description), "time": .number(time.seconds, places: 3)]).text
        case .interruptionEnded(let input, let time):
            line = JSONValue.object(["event": "interruption-ended", "input": .string(input), "time": .number(time.seconds, places: 3)]).text
        default: return
        }
        lock.withLock { try? handle.write(contentsOf: Data((line + "\n").utf8)) }
    }

    func close() {
        lock.withLock { try? handle.close() }
    }
}
