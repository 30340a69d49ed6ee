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
        guard let line = event.jsonLine else { return }
        lock.withLock { try? handle.write(contentsOf: Data((line + "\n").utf8)) }
    }

    func close() {
        lock.withLock { try? handle.close() }
    }
}
