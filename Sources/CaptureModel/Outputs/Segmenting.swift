import Foundation

/// A long recording cut into parts that each play alone (`output.segment`, `--segment`), and the oldest
/// parts deleted for a ring recording (`output.keep`, `--keep`): a kiosk that records all week, a lecture
/// hall that keeps the last day. A part ends at the first key frame once it holds `time` or `bytes`.
///
/// Parts are named as every other file of one recording is: `talk.mkv`, then the next free `talk-2.mkv`,
/// `talk-3.mkv`… (`MovieFileOutput.numberedPath`).
public struct Segmenting: Sendable, Hashable {
    public var time: Duration?
    public var bytes: Int64?
    public var keep: Keep?

    /// Which parts stay on the disk: the newest `count`, those ended within `age`, or the newest that
    /// together take at most `bytes`. The part being written always stays.
    public enum Keep: Sendable, Hashable, CustomStringConvertible {
        case count(Int)
        case age(Duration)
        case bytes(Int64)

        public var description: String {
            switch self {
            case .count(let count): return "the newest \(count)"
            case .age(let age): return "those of the last \(Segmenting.text(age))"
            case .bytes(let bytes): return "the newest \(Segmenting.text(bytes: bytes))"
            }
        }
    }

    /// A part already written, for `keep`.
    public struct Part: Sendable, Equatable {
        public let path: String
        public let bytes: Int64
        public let ended: Date

        public init(path: String, bytes: Int64, ended: Date) {
            self.path = path
            self.bytes = bytes
            self.ended = ended
        }
    }

    public init(time: Duration? = nil, bytes: Int64? = nil, keep: Keep? = nil) {
        self.time = time
        self.bytes = bytes
        self.keep = keep
    }

    /// The ended parts (oldest first) that `keep` lets go of, at `now`, beside the part being written
    /// (`current` bytes so far; nil when none is).
    public func partsToDelete(_ ended: [Part], current: Int64?, now: Date) -> [Part] {
        switch keep {
        case nil:
            return []
        case .count(let count):
            // The part being written counts as one of them.
            return Array(ended.dropLast(max(0, current == nil ? count : count - 1)))
        case .age(let age):
            return ended.filter { now.timeIntervalSince($0.ended) > age.seconds }
        case .bytes(let limit):
            var total = current ?? 0
            var kept = 0
            for part in ended.reversed() {
                guard total + part.bytes <= limit else { break }
                total += part.bytes
                kept += 1
            }
            return Array(ended.dropLast(kept))
        }
    }

    // MARK: reading the values people write

    /// "10m", "90s", "1.5h", "2s" (a bare number is seconds): a time after now.
    public static func duration(_ text: String) -> Duration? {
        DurationText.parse(text, bare: .seconds).flatMap { $0 > .zero ? $0 : nil }
    }

    /// "500MB", "2GB", "700MiB" (powers of 1024 either way, as `df -h` counts). A unit is needed: "10m"
    /// is ten minutes.
    public static func bytes(_ text: String) -> Int64? {
        let units: [(String, Double)] = [("kib", 0x1p10), ("mib", 0x1p20), ("gib", 0x1p30), ("tib", 0x1p40),
                                         ("kb", 0x1p10), ("mb", 0x1p20), ("gb", 0x1p30), ("tb", 0x1p40)]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = units.first(where: { trimmed.hasSuffix($0.0) }),
              let value = Double(trimmed.dropLast(unit.0.count).trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0,
              value * unit.1 < 9e18 else { return nil }
        return Int64(value * unit.1)
    }

    /// `--segment`: a time ("10m") or a size ("2GB").
    public static func parse(segment text: String) throws -> Segmenting {
        if let bytes = bytes(text) { return try Segmenting(bytes: bytes).checked() }
        if let time = duration(text) { return try Segmenting(time: time).checked() }
        throw SegmentingError("a part's length is a time (10m, 90s, 1h) or a size (500MB, 2GB), not '\(text)'")
    }

    /// `--keep`, `output.keep`: a count ("48"), an age ("12h", "7d") or a size ("20GB").
    public static func parse(keep text: String) throws -> Keep {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let count = Int(trimmed) {
            guard SessionLimits.keptParts.contains(count) else {
                throw SegmentingError("keep is \(SessionLimits.text(SessionLimits.keptParts)) parts, not \(count)")
            }
            return .count(count)
        }
        if let bytes = bytes(trimmed) { return .bytes(bytes) }
        if trimmed.lowercased().hasSuffix("d"), let days = Double(trimmed.dropLast()), days > 0, days.isFinite, days < 100_000 {
            return .age(.seconds(days * 86_400))
        }
        // An age of at least a second: `500ms` would delete every part as soon as it is finished.
        if let age = duration(trimmed), age >= .seconds(1) { return .age(age) }
        throw SegmentingError("keep is a count of parts (48), an age (12h, 7d) or a size (20GB), not '\(SecretText.hint(text))'")
    }

    /// Within the limits a recording can honour: a part of at least a second and a megabyte.
    public func checked() throws -> Segmenting {
        if let time, !SessionLimits.segmentSeconds.contains(time.seconds) {
            throw SegmentingError("a part lasts \(SessionLimits.text(SessionLimits.segmentSeconds)) seconds, not \(Self.text(time))")
        }
        if let bytes, bytes < SessionLimits.segmentBytes {
            throw SegmentingError("a part holds at least \(Self.text(bytes: SessionLimits.segmentBytes)), not \(Self.text(bytes: bytes))")
        }
        if time == nil && bytes == nil { throw SegmentingError("a part needs a time or a size") }
        return self
    }

    static func text(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
        return String(format: "%gs", seconds)
    }

    static func text(bytes: Int64) -> String {
        bytes >= 1 << 30 ? String(format: "%gGB", Double(bytes) / Double(1 << 30)) : String(format: "%gMB", Double(bytes) / Double(1 << 20))
    }
}

/// A `--segment` or `--keep` value pipcam cannot use, in one line.
public struct SegmentingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
