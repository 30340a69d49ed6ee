import CaptureModel
import Foundation

/// A recording's markers as Matroska chapters: appended to the file as it is ended (finished or
/// repaired), from its `MarkerJournal`, and read back for an export. The muxer could write chapters
/// only from a table of contents set before it ends the file, which a crash never reaches; written
/// here, the same step serves a file ended normally and one repaired after a kill.
public enum MatroskaChapters {
    /// Appends the journal's markers kept for `file` as its chapters, each placed within `start...end` (a
    /// part of a recording in parts holds the markers set while it was written); returns where the
    /// chapters begin, nil when there were none. The seek table and the segment's size are the caller's.
    static func append(for file: MatroskaFileBytes, start: Duration, end: Duration) throws -> Int64? {
        let markers = MarkerJournal.read(for: file.path)
        guard !markers.isEmpty else { return nil }
        var atoms: [UInt8] = []
        for (index, marker) in markers.enumerated() {
            let time = min(max(marker.time, start), max(start, end))
            let display = EBMLWriter.element(MatroskaID.chapString, Array(marker.title.utf8)) + EBMLWriter.element(MatroskaID.chapLanguage, Array("eng".utf8))
            atoms += EBMLWriter.element(MatroskaID.chapterAtom, EBMLWriter.unsigned(MatroskaID.chapterUID, UInt64(index + 1))
                + EBMLWriter.unsigned(MatroskaID.chapterTimeStart, UInt64(max(0, time.nanosecondCount)))
                + EBMLWriter.element(MatroskaID.chapterDisplay, display))
        }
        let edition = EBMLWriter.element(MatroskaID.editionEntry, EBMLWriter.unsigned(MatroskaID.editionUID, UInt64.random(in: 1...UInt64(UInt32.max))) + atoms)
        let offset = file.size
        try file.write(EBMLWriter.element(MatroskaID.chapters, edition), at: offset)
        return offset
    }

    /// Points the seek table at the chapters at `offset`: the entry the muxer left for them, or, once
    /// it has made that entry a void (a file it ended without chapters), a seek entry written into the void.
    static func point(_ file: MatroskaFileBytes, _ layout: MatroskaLayout, at offset: Int64) throws {
        let position = withUnsafeBytes(of: UInt64(offset - layout.dataStart).bigEndian) { Array($0) }
        if let entry = layout.seekEntries.first(where: { $0.target == MatroskaID.chapters && $0.positionLength == 8 }) {
            try file.write(position, at: entry.positionOffset)
            return
        }
        let seek = EBMLWriter.element(MatroskaID.seek, EBMLWriter.element(MatroskaID.seekID, EBMLWriter.id(MatroskaID.chapters))
            + EBMLWriter.element(MatroskaID.seekPosition, position))
        guard let head = layout.positions[MatroskaID.seekHead].flatMap(file.element(at:)),
              let void = file.children(of: head).first(where: { $0.id == MatroskaID.void && ($0.length == seek.count || $0.length >= seek.count + 2) }) else {
            throw MatroskaRepair.Failure.unsupported("the seek table has no room for the chapters")
        }
        try file.write(seek + MatroskaRepair.void(length: void.length - seek.count), at: void.offset)
    }

    /// The chapters of the Matroska file at `path` as markers, in order, with when the file begins (a
    /// part of a recording in parts begins where the part before it ended, and its chapters are in the
    /// recording's time); none when it has none (or is not one).
    public static func read(path: String) -> (markers: [Marker], start: Duration) {
        guard let file = try? MatroskaFileBytes(path: path, writable: false), let layout = try? MatroskaLayout.read(file),
              let entry = layout.seekEntries.first(where: { $0.target == MatroskaID.chapters && $0.positionLength == 8 }) else { return ([], .zero) }
        let position = MatroskaFileBytes.unsigned(file.bytes(at: entry.positionOffset, count: 8))
        guard position < UInt64(file.size), let chapters = file.element(at: layout.dataStart + Int64(position)),
              chapters.id == MatroskaID.chapters else { return ([], .zero) }
        var markers: [Marker] = []
        for edition in file.children(of: chapters) where edition.id == MatroskaID.editionEntry {
            for atom in edition.children where atom.id == MatroskaID.chapterAtom {
                let fields = atom.children
                guard let start = fields.first(where: { $0.id == MatroskaID.chapterTimeStart }) else { continue }
                let title = fields.first { $0.id == MatroskaID.chapterDisplay }?.children.first { $0.id == MatroskaID.chapString }
                let nanoseconds = Int64(clamping: MatroskaFileBytes.unsigned(start.body.prefix(8)))
                markers.append(Marker(title: title.map { String(decoding: $0.body.prefix { $0 != 0 }, as: UTF8.self) } ?? "", time: .nanoseconds(nanoseconds)))
            }
        }
        return (markers.sorted { $0.time < $1.time }, BlockScan.startTime(file, from: layout.firstCluster, scale: layout.timecodeScale))
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanosecondCount: Int64 {
        let (seconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (components.seconds < 0 ? .min : .max) : seconds &+ components.attoseconds / 1_000_000_000
    }
}
