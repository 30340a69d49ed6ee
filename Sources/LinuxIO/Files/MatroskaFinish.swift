import CaptureModel
import Foundation

/// What a recording needs once its muxer has ended it that GStreamer 1.22's muxer cannot write: which
/// tracks a player leaves off unless asked (only the picture and the mix play by default; each
/// microphone and each camera's own track are there to choose), and how long each track lasts (a
/// DURATION tag, as ffmpeg and mkvmerge write it), so that players and editors tell the tracks apart.
///
/// The muxer writes every track as a default one and has no room for the flag, so the graph names a
/// track that is not to play by default with `notDefaultMark` at the end of its title: room for the
/// flag, which finishing trades the mark for. The durations go into the tags at the end of the file, and
/// the markers set while it was written after them, as its chapters (`MatroskaChapters`).
public enum MatroskaFinish {
    /// Three spaces: a "not played by default" flag takes three bytes.
    public static let notDefaultMark = "   "

    /// Ends the recording the muxer wrote at `path`, whichever way it stopped: finished by the muxer, it
    /// gets what the muxer cannot write; cut off (a full disk, a stop asked at once), it is ended as a
    /// crashed one would be, giving up a fraction of a second at its end if the disk has no room for its
    /// index. Returns what a repaired file keeps; nil when the muxer had ended it, or nothing could be done.
    public static func end(path: String) -> MatroskaRepair.Result? {
        guard let header = MatroskaHeader.read(path: path) else { return nil }
        if header.isFinished {
            try? run(path: path)
            return nil
        }
        return try? MatroskaRepair.repair(path: path, makingRoom: true)
    }

    /// Finishes the ended recording at `path` in place.
    public static func run(path: String) throws {
        let file = try MatroskaFileBytes(path: path, writable: true)
        let layout = try MatroskaLayout.read(file)
        try writeFlags(file, layout)
        let ends = BlockScan.trackEnds(file, from: layout.firstCluster, tracks: layout.tracks, scale: layout.timecodeScale)
        let start = BlockScan.startTime(file, from: layout.firstCluster, scale: layout.timecodeScale)
        let tags = try appendDurations(BlockScan.since(start, ends), file: file, layout: layout)
        let chapters = try MatroskaChapters.append(for: file, start: start, end: ends.values.max() ?? start)
        if let chapters { try MatroskaChapters.point(file, layout, at: chapters) }
        guard tags != nil || chapters != nil else { return }
        try writeSegmentSize(file, layout)
        file.sync()
        if chapters != nil { MarkerJournal.remove(for: path) }
    }

    static func writeSegmentSize(_ file: MatroskaFileBytes, _ layout: MatroskaLayout) throws {
        guard let size = EBMLWriter.size(UInt64(file.size - layout.dataStart), length: layout.segmentSizeLength) else {
            throw MatroskaRepair.Failure.unsupported("the segment's size has no room")
        }
        try file.write(size, at: layout.segmentSizeOffset)
    }

    /// Trades each track name's mark for a "not default" flag, in the same bytes.
    static func writeFlags(_ file: MatroskaFileBytes, _ layout: MatroskaLayout) throws {
        let mark = Array(notDefaultMark.utf8)
        for track in layout.tracks.values {
            guard let name = track.name else { continue }
            var text = name.body
            while text.last == 0 { text.removeLast() }
            guard text.count >= mark.count, Array(text.suffix(mark.count)) == mark else { continue }
            // The name without its mark, padded with zeros (an EBML string may end in them) to three bytes
            // less than it was: the flag takes those.
            let kept = Array(text.dropLast(mark.count))
            let length = name.body.count - 3
            guard kept.count <= length, let size = EBMLWriter.size(UInt64(length), length: Int(name.bodyOffset - name.offset) - 2) else { continue }
            let flag = EBMLWriter.unsigned(MatroskaID.flagDefault, 0), nameID = EBMLWriter.id(MatroskaID.name)
            let bytes: [UInt8] = flag + nameID + size + kept + [UInt8](repeating: 0, count: length - kept.count)
            guard bytes.count == name.length else { continue }
            try file.write(bytes, at: name.offset)
        }
    }

    /// Adds a DURATION tag for each track to the file's tags (the last element, or a new one the seek
    /// table points to); returns where the tags are. The segment's size is the caller's to write.
    @discardableResult
    static func appendDurations(_ ends: [UInt64: Duration], file: MatroskaFileBytes, layout: MatroskaLayout) throws -> Int64? {
        var tags: [UInt8] = []
        for (number, end) in ends.sorted(by: { $0.key < $1.key }) {
            guard let uid = layout.tracks[number]?.uid else { continue }
            let targets = EBMLWriter.element(MatroskaID.targets, EBMLWriter.unsigned(MatroskaID.tagTrackUID, uid))
            let simple = EBMLWriter.element(MatroskaID.simpleTag, EBMLWriter.element(MatroskaID.tagName, Array("DURATION".utf8)) + EBMLWriter.element(MatroskaID.tagString, Array(clock(end).utf8)))
            tags += EBMLWriter.element(MatroskaID.tag, targets + simple)
        }
        guard !tags.isEmpty else { return nil }
        let tagsEntry = layout.seekEntries.first { $0.target == MatroskaID.tags }
        let existing = tagsEntry.flatMap { entry -> MatroskaFileBytes.Element? in
            let position = MatroskaFileBytes.unsigned(file.bytes(at: entry.positionOffset, count: entry.positionLength))
            guard position < UInt64(file.size) else { return nil }
            return file.element(at: layout.dataStart + Int64(position))
        }
        if let existing, existing.id == MatroskaID.tags { try dropTitleTags(in: existing, file: file) }
        if let existing, existing.id == MatroskaID.tags, existing.end == file.size, let size = existing.size,
           let newSize = EBMLWriter.size(UInt64(size) + UInt64(tags.count), length: existing.sizeLength) {
            try file.write(tags, at: file.size)
            try file.write(newSize, at: existing.sizeOffset)
            return existing.offset
        }
        let offset = file.size
        try file.write(EBMLWriter.element(MatroskaID.tags, tags), at: offset)
        if let tagsEntry, tagsEntry.positionLength == 8 {
            try file.write(withUnsafeBytes(of: UInt64(offset - layout.dataStart).bigEndian) { Array($0) }, at: tagsEntry.positionOffset)
        }
        return offset
    }

    /// The muxer repeats each track's name as a TITLE tag, but in GStreamer's quoted form
    /// (`"Picture:\ front"`), which readers then prefer to the name: each becomes a void of its length.
    static func dropTitleTags(in tags: MatroskaFileBytes.Element, file: MatroskaFileBytes) throws {
        for tag in file.children(of: tags) where tag.id == MatroskaID.tag {
            for simple in tag.children where simple.id == MatroskaID.simpleTag {
                guard let name = simple.children.first(where: { $0.id == MatroskaID.tagName }),
                      String(decoding: name.body.prefix { $0 != 0 }, as: UTF8.self) == "TITLE" else { continue }
                try file.write(MatroskaRepair.void(length: simple.length), at: simple.offset)
            }
        }
    }

    /// "00:01:02.500000000", as Matroska's DURATION tag is written.
    static func clock(_ duration: Duration) -> String {
        let nanoseconds = duration.nanosecondCount
        let seconds = nanoseconds / 1_000_000_000
        return String(format: "%02lld:%02lld:%02lld.%09lld", seconds / 3600, seconds / 60 % 60, seconds % 60, nanoseconds % 1_000_000_000)
    }
}
