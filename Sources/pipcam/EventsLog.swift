import Capture
import Foundation

/// `record --events FILE.jsonl`: one JSON object per line with an "event" field: "pressure" samples
/// (about once a second: level, factors, pictures, dropped, skipped, step), and "throttle" / "restore"
/// steps with their new settings and reason, "interrupted" / "interruption-ended" when a device is lost
/// and back (input, reason, recording time), "control" when a camera's controls change (camera, the
/// values read back, time), "stream" when a stream connects, is lost or falls behind (stream, what,
/// reason, retry seconds, pictures left out). Lines are written as they happen, so a crash loses none.
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
        case .controlsChanged(let camera, let controls, let time):
            let values = Dictionary(controls.compactMap { control in control.value.map { (control.name, JSONValue.number(Double($0), places: 0)) } }) { $1 }
            line = JSONValue.object(["event": "control", "camera": .string(camera), "set": .object(values), "time": .number(time.seconds, places: 3)]).text
        case .stream(let event):
            var fields: [String: JSONValue] = ["event": .string("stream"), "stream": .string(event.stream)]
            switch event.kind {
            case .connected: fields["what"] = .string("connected")
            case .lost(let reason, let retry):
                fields["what"] = .string("lost")
                fields["reason"] = .string(reason)
                fields["retry"] = .number(retry.seconds, places: 0)
            case .dropped(let pictures):
                fields["what"] = .string("dropped")
                fields["pictures"] = .number(Double(pictures), places: 0)
            }
            line = JSONValue.object(fields).text
        default: return
        }
        lock.withLock { try? handle.write(contentsOf: Data((line + "\n").utf8)) }
    }

    func close() {
        lock.withLock { try? handle.close() }
    }
}
