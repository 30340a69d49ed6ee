import CaptureModel
import Foundation

/// What the first bytes of a Matroska file say about it: who wrote it, whether the writer finished it,
/// and its duration. The muxer starts a file with a segment of unknown size and writes the size, the
/// duration and the index only when it ends the file, so a recording cut off by a crash, a kill or a
/// power loss still says "unknown" there: that is how `record` finds one of its own to repair.
public struct MatroskaHeader: Sendable, Equatable {
    /// The program that wrote the file (WritingApp), if it said.
    public let writingApp: String?
    /// Whether the writer ended the file: the segment's size is known.
    public let isFinished: Bool
    /// The segment's duration, as the writer put it (zero or absent until the file is ended).
    public let duration: Duration?

    public init(writingApp: String?, isFinished: Bool, duration: Duration?) {
        self.writingApp = writingApp
        self.isFinished = isFinished
        self.duration = duration
    }

    /// A recording of pipcam's own that was never ended.
    public var isUnfinishedRecording: Bool { writingApp == "pipcam" && !isFinished }

    /// Reads the header of the file at `path`; nil when it is not a Matroska file (or cannot be read).
    public static func read(path: String) -> MatroskaHeader? {
        (try? MatroskaFileBytes(path: path, writable: false)).flatMap(read)
    }

    static func read(_ file: MatroskaFileBytes) -> MatroskaHeader? {
        guard let ebml = file.element(at: 0), ebml.id == MatroskaID.ebml, let ebmlEnd = ebml.end,
              let docType = file.children(of: ebml).first(where: { $0.id == MatroskaID.docType }),
              ["matroska", "webm"].contains(String(decoding: docType.body.prefix { $0 != 0 }, as: UTF8.self)),
              let segment = file.element(at: ebmlEnd), segment.id == MatroskaID.segment else { return nil }
        var writingApp: String?
        var duration: Duration?
        // The segment's first children: the seek table, the info (WritingApp, Duration), the tracks.
        var offset = segment.body
        while let element = file.element(at: offset), element.id != MatroskaID.cluster, let end = element.end {
            if element.id == MatroskaID.info {
                let fields = file.children(of: element)
                writingApp = fields.first { $0.id == MatroskaID.writingApp }.map { String(decoding: $0.body.prefix { $0 != 0 }, as: UTF8.self) }
                let scale = fields.first { $0.id == MatroskaID.timestampScale }.map { Double(MatroskaFileBytes.unsigned($0.body.prefix(8))) } ?? 1_000_000
                if let field = fields.first(where: { $0.id == MatroskaID.duration }) {
                    let bits = MatroskaFileBytes.unsigned(field.body.prefix(8))
                    let value = field.body.count == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
                    let nanoseconds = value * scale
                    if nanoseconds > 0, nanoseconds < 9e18 { duration = .nanoseconds(Int64(nanoseconds)) }
                }
            }
            offset = end
        }
        return MatroskaHeader(writingApp: writingApp, isFinished: segment.size != nil, duration: duration)
    }
}
