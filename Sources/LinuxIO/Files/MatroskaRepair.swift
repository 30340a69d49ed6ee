import CaptureModel
import Foundation

/// Ends, in place, a Matroska recording whose writer never did (a crash, a kill, a power cut): what its
/// muxer would have written at the end, without copying or re-encoding anything.
///
/// The muxer writes a segment and clusters of unknown size, and placeholders for the segment's duration
/// and for where its index goes; blocks follow one another as they are encoded. So the repair reads the
/// block headers from the start, keeps every block that is whole and followed by a well-formed element
/// (a block cut off by the crash, or followed by the zeros a power cut can leave, is dropped), cuts the
/// file there, appends the index (a cue at every key picture), and fills in the cluster's size, the
/// seek table, the duration, the chapters kept beside it (`MarkerJournal`) and, last of all, the segment's size: a repair stopped half-way leaves a
/// file that is still unfinished, and can be repaired again.
public enum MatroskaRepair {
    public struct Result: Sendable, Equatable {
        /// How long the repaired file plays.
        public let duration: Duration
        /// Bytes cut off the end: the last, incomplete, blocks.
        public let droppedBytes: Int64
        /// Pictures of the first video track (a recording's composed picture) the file keeps.
        public var pictures = 0
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case unwritable(String)
        /// The disk has no room for the index and durations.
        case noRoom
        case notMatroska
        case finished
        case noPictures
        case unsupported(String)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .unwritable(let reason): "cannot be written: \(reason)"
            case .noRoom: "cannot be ended in place: the disk is full (free some space, or repair it to a file on another disk)"
            case .notMatroska: "is not a Matroska file"
            case .finished: "is complete: nothing to repair"
            case .noPictures: "holds no whole picture: nothing to keep"
            case .unsupported(let what): "cannot be repaired: \(what)"
            }
        }
    }

    /// Repairs the file at `path` in place. With `makingRoom`, a disk too full for the index and the
    /// durations gives up the end of the recording for them, 64 KiB (a fraction of a second) at a time,
    /// up to a megabyte: a recording the disk filled under is ended, not left without its index.
    public static func repair(path: String, makingRoom: Bool) throws -> Result {
        var cut: Int64 = 64 << 10
        while true {
            do {
                return try repair(path: path)
            } catch Failure.noRoom where makingRoom && cut <= 1 << 20 {
                let file = try MatroskaFileBytes(path: path, writable: true)
                let layout = try MatroskaLayout.read(file)
                guard file.size - cut > layout.firstCluster else { throw Failure.noRoom }
                // As a crash would cut it: the repair keeps the whole blocks before the cut.
                try file.truncate(at: file.size - cut)
                cut *= 2
            }
        }
    }

    /// Repairs the file at `path` in place.
    public static func repair(path: String) throws -> Result {
        let file = try MatroskaFileBytes(path: path, writable: true)
        guard let header = MatroskaHeader.read(file) else { throw Failure.notMatroska }
        guard !header.isFinished else { throw Failure.finished }
        var layout = try MatroskaLayout.read(file)
        let scan = BlockScan.run(file, from: layout.firstCluster, tracks: layout.tracks, scale: layout.timecodeScale)
        guard scan.hasPicture else { throw Failure.noPictures }
        let droppedBytes = file.size - scan.keptEnd

        try file.truncate(at: scan.keptEnd)
        if let cluster = scan.lastCluster, let size = EBMLWriter.size(UInt64(scan.keptEnd - cluster.body), length: cluster.sizeLength) {
            try file.write(size, at: cluster.sizeOffset)
        }
        let cuesOffset = scan.keptEnd
        try file.write(cues(scan.cues, relativeTo: layout.dataStart), at: cuesOffset)
        layout.positions[MatroskaID.cues] = cuesOffset
        try MatroskaFinish.writeFlags(file, layout)
        let start = BlockScan.startTime(file, from: layout.firstCluster, scale: layout.timecodeScale)
        layout.positions[MatroskaID.tags] = try MatroskaFinish.appendDurations(BlockScan.since(start, scan.ends), file: file, layout: layout)
        let chapters = try MatroskaChapters.append(for: file, start: start, end: scan.end)
        layout.positions[MatroskaID.chapters] = chapters
        for entry in layout.seekEntries {
            if entry.positionLength == 8, let position = layout.positions[entry.target] {
                try file.write(withUnsafeBytes(of: UInt64(position - layout.dataStart).bigEndian) { Array($0) }, at: entry.positionOffset)
            } else {
                // A place the muxer meant to fill (tags, chapters) that the file does not have: a void of the same length.
                try file.write(void(length: entry.length), at: entry.offset)
            }
        }
        if let chapters, !layout.seekEntries.contains(where: { $0.target == MatroskaID.chapters && $0.positionLength == 8 }) {
            try MatroskaChapters.point(file, layout, at: chapters)
        }
        let duration = max(.zero, scan.end - start)
        if let field = layout.durationField {
            let units = Double(duration.nanosecondCount) / Double(layout.timecodeScale)
            let bytes = field.length == 4 ? withUnsafeBytes(of: Float(units).bitPattern.bigEndian) { Array($0) }
                                          : withUnsafeBytes(of: units.bitPattern.bigEndian) { Array($0) }
            try file.write(bytes, at: field.offset)
        }
        file.sync()
        try MatroskaFinish.writeSegmentSize(file, layout)
        file.sync()
        if chapters != nil { MarkerJournal.remove(for: path) }
        var result = Result(duration: duration, droppedBytes: droppedBytes)
        result.pictures = layout.tracks.filter(\.value.isVideo).keys.min().flatMap { scan.blocks[$0] } ?? 0
        return result
    }

    /// The index: where each key picture's cluster starts, by time.
    private static func cues(_ cues: [(time: UInt64, track: UInt64, cluster: Int64)], relativeTo dataStart: Int64) -> [UInt8] {
        var body: [UInt8] = []
        for cue in cues {
            let position = EBMLWriter.element(MatroskaID.cueTrackPositions, EBMLWriter.unsigned(MatroskaID.cueTrack, cue.track) + EBMLWriter.unsigned(MatroskaID.cueClusterPosition, UInt64(cue.cluster - dataStart)))
            body += EBMLWriter.element(MatroskaID.cuePoint, EBMLWriter.unsigned(MatroskaID.cueTime, cue.time) + position)
        }
        return EBMLWriter.element(MatroskaID.cues, body)
    }

    /// An EBML void element of exactly `length` bytes (at least two: an id and a size).
    static func void(length: Int) -> [UInt8] {
        let sizeLength = length - 1 <= 127 ? 1 : 8
        guard length >= 2, let size = EBMLWriter.size(UInt64(length - 1 - sizeLength), length: sizeLength) else { return [] }
        return [UInt8(MatroskaID.void)] + size + [UInt8](repeating: 0, count: length - 1 - sizeLength)
    }
}

/// Where the parts of a Matroska file's head are, and what they say: the segment's size field, the seek
/// table's entries, the info's timecode scale and duration field, the tracks, and the first cluster.
struct MatroskaLayout {
    struct SeekEntry {
        let offset: Int64
        let length: Int
        let target: UInt32
        let positionOffset: Int64
        let positionLength: Int
    }

    struct Track {
        let isVideo: Bool
        /// Nanoseconds each block lasts, when the muxer said.
        let defaultDuration: UInt64?
        let uid: UInt64?
        /// The track's name element, where it is in the file.
        let name: MatroskaFileBytes.Child?
    }

    var segmentSizeOffset: Int64 = 0
    var segmentSizeLength = 0
    var dataStart: Int64 = 0
    var seekEntries: [SeekEntry] = []
    /// Where each top-level element the seek table may point to starts, by id.
    var positions: [UInt32: Int64] = [:]
    var timecodeScale: UInt64 = 1_000_000
    var durationField: (offset: Int64, length: Int)?
    var tracks: [UInt64: Track] = [:]
    var firstCluster: Int64 = 0

    static func read(_ file: MatroskaFileBytes) throws -> MatroskaLayout {
        guard let ebml = file.element(at: 0), let ebmlEnd = ebml.end, let segment = file.element(at: ebmlEnd), segment.id == MatroskaID.segment else {
            throw MatroskaRepair.Failure.notMatroska
        }
        var layout = MatroskaLayout()
        layout.segmentSizeOffset = segment.sizeOffset
        layout.segmentSizeLength = segment.sizeLength
        layout.dataStart = segment.body
        var offset = segment.body
        while let element = file.element(at: offset), element.id != MatroskaID.cluster {
            guard let end = element.end else { throw MatroskaRepair.Failure.unsupported("an element of unknown size before the first cluster") }
            layout.positions[element.id] = element.offset
            switch element.id {
            case MatroskaID.seekHead: layout.readSeekHead(file, element)
            case MatroskaID.info: layout.readInfo(file, element)
            case MatroskaID.tracks: layout.readTracks(file, element)
            default: break
            }
            offset = end
        }
        guard file.element(at: offset)?.id == MatroskaID.cluster else { throw MatroskaRepair.Failure.noPictures }
        layout.firstCluster = offset
        return layout
    }

    private mutating func readSeekHead(_ file: MatroskaFileBytes, _ element: MatroskaFileBytes.Element) {
        for seek in file.children(of: element) where seek.id == MatroskaID.seek {
            let fields = seek.children
            guard let target = fields.first(where: { $0.id == MatroskaID.seekID }), let position = fields.first(where: { $0.id == MatroskaID.seekPosition }) else { continue }
            seekEntries.append(SeekEntry(offset: seek.offset, length: seek.length, target: UInt32(truncatingIfNeeded: MatroskaFileBytes.unsigned(target.body)),
                                         positionOffset: position.bodyOffset, positionLength: position.body.count))
        }
    }

    private mutating func readInfo(_ file: MatroskaFileBytes, _ element: MatroskaFileBytes.Element) {
        for field in file.children(of: element) {
            if field.id == MatroskaID.timestampScale { timecodeScale = max(1, MatroskaFileBytes.unsigned(field.body)) }
            if field.id == MatroskaID.duration { durationField = (field.bodyOffset, field.body.count) }
        }
    }

    private mutating func readTracks(_ file: MatroskaFileBytes, _ element: MatroskaFileBytes.Element) {
        for entry in file.children(of: element) where entry.id == MatroskaID.trackEntry {
            let children = entry.children
            let fields = Dictionary(children.map { ($0.id, MatroskaFileBytes.unsigned($0.body.prefix(8))) }) { first, _ in first }
            guard let number = fields[MatroskaID.trackNumber] else { continue }
            tracks[number] = Track(isVideo: fields[MatroskaID.trackType] == 1, defaultDuration: fields[MatroskaID.defaultDuration], uid: fields[MatroskaID.trackUID],
                                   name: children.first { $0.id == MatroskaID.name })
        }
    }
}

/// The walk over the clusters: which blocks are whole, when each track ends, and where the key pictures are.
struct BlockScan {
    /// The end of the last block kept (or of the last whole cluster).
    var keptEnd: Int64 = 0
    /// The cluster the kept part ends in, whose size the repair writes.
    var lastCluster: MatroskaFileBytes.Element?
    var cues: [(time: UInt64, track: UInt64, cluster: Int64)] = []
    var hasPicture = false
    /// When the last block of any track ends, and of each track.
    var end: Duration = .zero
    var ends: [UInt64: Duration] = [:]
    /// Blocks kept, per track.
    var blocks: [UInt64: Int] = [:]

    private static let clusterID: UInt32 = MatroskaID.cluster
    private static let topLevel: Set<UInt32> = [clusterID, MatroskaID.cues, MatroskaID.tags, MatroskaID.chapters, MatroskaID.attachments]
    /// What a cluster holds besides blocks: its time, position, previous size, a void, a checksum.
    private static let clusterFields: Set<UInt32> = [MatroskaID.timestamp, MatroskaID.position, MatroskaID.prevSize, MatroskaID.void, MatroskaID.crc32]

    static func run(_ file: MatroskaFileBytes, from first: Int64, tracks: [UInt64: MatroskaLayout.Track], scale: UInt64) -> BlockScan {
        var scan = BlockScan()
        scan.keptEnd = first
        var offset = first
        while let cluster = file.element(at: offset), cluster.id == clusterID {
            let (end, whole) = scan.readCluster(file, cluster, tracks: tracks, scale: scale)
            guard whole else { break }
            offset = end
        }
        return scan
    }

    /// When the file begins: its first cluster's time. A part of a recording in parts begins where the
    /// part before it ended, and its durations count from there.
    static func startTime(_ file: MatroskaFileBytes, from first: Int64, scale: UInt64) -> Duration {
        guard let cluster = file.element(at: first), cluster.id == clusterID else { return .zero }
        var offset = cluster.body
        while let element = file.element(at: offset), let size = element.size, clusterFields.contains(element.id) {
            if element.id == MatroskaID.timestamp { return .nanoseconds(product(MatroskaFileBytes.unsigned(file.body(of: element, limit: 8)), scale)) }
            offset = element.body + size
        }
        return .zero
    }

    /// Each of `ends` counted from `start` (never below zero).
    static func since(_ start: Duration, _ ends: [UInt64: Duration]) -> [UInt64: Duration] {
        ends.mapValues { max(.zero, $0 - start) }
    }

    /// When each track of an ended file ends: the blocks of its last clusters are read (every track has
    /// blocks there; one that has none is read back further), the clusters before are only stepped over.
    static func trackEnds(_ file: MatroskaFileBytes, from first: Int64, tracks: [UInt64: MatroskaLayout.Track], scale: UInt64) -> [UInt64: Duration] {
        var clusters: [Int64] = []
        var offset = first
        while let element = file.element(at: offset), let end = element.end {
            if element.id == clusterID { clusters.append(offset) }
            guard topLevel.contains(element.id) || element.id == MatroskaID.void else { break }
            offset = end
        }
        var scan = BlockScan()
        var start = max(0, clusters.count - 3)
        while true {
            scan = BlockScan()
            for cluster in clusters[start...] {
                guard let element = file.element(at: cluster) else { break }
                _ = scan.readCluster(file, element, tracks: tracks, scale: scale)
            }
            if start == 0 || Set(scan.ends.keys).isSuperset(of: tracks.keys) { return scan.ends }
            start = max(0, start - 16)
        }
    }

    /// Reads one cluster's blocks; returns where it ends and whether it is whole (the walk goes on after it).
    private mutating func readCluster(_ file: MatroskaFileBytes, _ cluster: MatroskaFileBytes.Element, tracks: [UInt64: MatroskaLayout.Track],
                                      scale: UInt64) -> (Int64, Bool) {
        let declaredEnd = cluster.end.flatMap { $0 > cluster.body ? $0 : nil }
        var clusterTime: UInt64 = 0
        var pending: (end: Int64, track: UInt64, time: Int64, key: Bool, duration: UInt64?)?
        var offset = cluster.body
        lastCluster = cluster
        keptEnd = max(keptEnd, cluster.body)
        while true {
            if let declaredEnd, offset == declaredEnd {
                if let block = pending { keep(block, cluster: cluster, tracks: tracks, scale: scale) }
                keptEnd = offset
                return (offset, true)
            }
            // No well-formed element here (zeros, garbage): the block before may be broken as well.
            guard let element = file.element(at: offset) else { return (offset, false) }
            if declaredEnd == nil && Self.topLevel.contains(element.id) {
                if let block = pending { keep(block, cluster: cluster, tracks: tracks, scale: scale) }
                keptEnd = offset
                return (offset, true)
            }
            let isBlock = element.id == MatroskaID.simpleBlock || element.id == MatroskaID.blockGroup
            guard isBlock || Self.clusterFields.contains(element.id) else { return (offset, false) }
            guard let size = element.size, element.body + size <= file.size else {
                // A block cut off by the end of the file: the one before it is whole.
                if let block = pending { keep(block, cluster: cluster, tracks: tracks, scale: scale) }
                return (offset, false)
            }
            // A well-formed element follows the pending block: the block is whole.
            if let block = pending { keep(block, cluster: cluster, tracks: tracks, scale: scale) }
            pending = nil
            if element.id == MatroskaID.timestamp { clusterTime = MatroskaFileBytes.unsigned(file.body(of: element, limit: 8)) }
            if isBlock, let block = Self.block(file, element, clusterTime: clusterTime) {
                pending = (element.body + size, block.track, block.time, block.key, block.duration)
            } else if isBlock {
                return (offset, false)
            } else {
                keptEnd = element.body + size
            }
            offset = element.body + size
        }
    }

    private mutating func keep(_ block: (end: Int64, track: UInt64, time: Int64, key: Bool, duration: UInt64?), cluster: MatroskaFileBytes.Element,
                               tracks: [UInt64: MatroskaLayout.Track], scale: UInt64) {
        keptEnd = block.end
        let track = tracks[block.track]
        // A hostile file's times may be anything: the arithmetic saturates rather than traps.
        let start = Self.product(UInt64(max(0, block.time)), scale)
        let length = block.duration.map { Self.product($0, scale) } ?? Int64(clamping: track?.defaultDuration ?? 0)
        let blockEnd = Duration.nanoseconds(start.addingReportingOverflow(length).overflow ? Int64.max : start + length)
        end = max(end, blockEnd)
        ends[block.track] = max(ends[block.track] ?? .zero, blockEnd)
        blocks[block.track, default: 0] += 1
        guard track?.isVideo == true else { return }
        hasPicture = true
        if block.key { cues.append((UInt64(max(0, block.time)), block.track, cluster.offset)) }
    }

    private static func product(_ a: UInt64, _ b: UInt64) -> Int64 {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int64.max : Int64(clamping: value)
    }

    /// A block's track, time (in the file's timecode units), whether it is a key picture, and its duration if stated.
    private static func block(_ file: MatroskaFileBytes, _ element: MatroskaFileBytes.Element, clusterTime: UInt64)
        -> (track: UInt64, time: Int64, key: Bool, duration: UInt64?)? {
        var header = file.bytes(at: element.body, count: 12)
        var key = false
        var duration: UInt64?
        if element.id == MatroskaID.blockGroup {
            // A block group: its block, and its duration; a key picture refers to no other.
            key = true
            var blockHeader: [UInt8]?
            for child in file.children(of: element) {
                if child.id == MatroskaID.block { blockHeader = Array(child.body.prefix(12)) }
                if child.id == MatroskaID.blockDuration { duration = MatroskaFileBytes.unsigned(child.body.prefix(8)) }
                if child.id == MatroskaID.referenceBlock { key = false }
            }
            guard let blockHeader else { return nil }
            header = blockHeader
        }
        guard let track = MatroskaFileBytes.number(header, from: 0, keepingMarker: false), header.count >= track.length + 3 else { return nil }
        let relative = Int16(bitPattern: UInt16(header[track.length]) << 8 | UInt16(header[track.length + 1]))
        if element.id == MatroskaID.simpleBlock { key = header[track.length + 2] & 0x80 != 0 }
        return (track.value, Int64(clamping: clusterTime) &+ Int64(relative), key, duration)
    }
}
