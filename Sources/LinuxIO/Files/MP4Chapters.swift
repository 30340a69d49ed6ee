import CaptureModel
import Foundation

/// Chapters for an MP4 file, which GStreamer's MP4 muxer cannot write: a chapter list (`chpl`, as
/// ffmpeg, mkvmerge and most players read it) put in the movie's header. The header sits before the
/// pictures (a fast-start file), so the file is written anew with the longer header, and every place the
/// header points into the file (its chunk offsets) moved by as much.
public enum MP4Chapters {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case malformed(String)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .malformed(let what): "is not an MP4 file pipcam can add chapters to: \(what)"
            }
        }
    }

    /// Writes `input` with `markers` as its chapters to `output`; the list holds at most 255.
    public static func write(_ markers: [Marker], from input: String, to output: String) throws {
        guard let reader = FileHandle(forReadingAtPath: input) else { throw Failure.unreadable(input) }
        defer { try? reader.close() }
        let size = Int64(try reader.seekToEnd())
        let boxes = try topLevel(reader, size: size)
        guard let moov = boxes.first(where: { $0.type == "moov" }) else { throw Failure.malformed("no movie header") }
        try reader.seek(toOffset: UInt64(moov.offset))
        guard moov.size < 64 << 20, var header = try reader.read(upToCount: Int(moov.size)), header.count == Int(moov.size), moov.headerLength == 8 else {
            throw Failure.malformed("a movie header pipcam cannot read")
        }
        let list = box("udta", box("chpl", chapterList(markers)))
        let grown = Int64(list.count)
        // Chunks after the header move by as much as it grows.
        let dataAfter = boxes.contains { $0.type == "mdat" && $0.offset > moov.offset }
        if dataAfter { try moveChunkOffsets(in: &header, from: 8, to: header.count, by: grown) }
        header.append(contentsOf: list)
        header.replaceSubrange(0..<4, with: bigEndian(UInt32(header.count)))
        guard FileManager.default.createFile(atPath: output, contents: nil), let writer = FileHandle(forWritingAtPath: output) else {
            throw Failure.unreadable(output)
        }
        defer { try? writer.close() }
        try copy(reader, from: 0, count: moov.offset, to: writer)
        try writer.write(contentsOf: header)
        try copy(reader, from: moov.offset + moov.size, count: size - moov.offset - moov.size, to: writer)
        try writer.synchronize()
    }

    /// The `chpl` body: version 1, each chapter's start in 100 ns units and its title (at most 255 bytes).
    static func chapterList(_ markers: [Marker]) -> Data {
        var body = Data([1, 0, 0, 0, 0, 0, 0, 0])
        let kept = markers.prefix(255)
        body.append(UInt8(kept.count))
        for marker in kept {
            body.append(contentsOf: bigEndian(UInt64(max(0, marker.time.seconds * 1e7).rounded())))
            var title = Array(marker.title.utf8.prefix(255))
            while String(bytes: title, encoding: .utf8) == nil { title.removeLast() }
            body.append(UInt8(title.count))
            body.append(contentsOf: title)
        }
        return body
    }

    struct Box {
        let type: String
        let offset: Int64
        let size: Int64
        let headerLength: Int64
    }

    /// The file's top-level boxes.
    static func topLevel(_ reader: FileHandle, size: Int64) throws -> [Box] {
        var boxes: [Box] = []
        var offset: Int64 = 0
        while offset + 8 <= size, boxes.count < 1000 {
            try reader.seek(toOffset: UInt64(offset))
            guard let head = try reader.read(upToCount: 16), head.count >= 8 else { break }
            var length = Int64(unsigned(head.prefix(4))), headerLength: Int64 = 8
            if length == 1, head.count == 16 {
                length = Int64(clamping: unsigned(head.dropFirst(8).prefix(8)))
                headerLength = 16
            } else if length == 0 {
                length = size - offset
            }
            guard length >= headerLength, offset + length <= size else { throw Failure.malformed("a box runs past the end of the file") }
            boxes.append(Box(type: String(decoding: head.dropFirst(4).prefix(4), as: UTF8.self), offset: offset, size: length, headerLength: headerLength))
            offset += length
        }
        return boxes
    }

    /// Adds `delta` to every chunk offset (`stco`, `co64`) in the boxes of `data[start..<end]`, going
    /// into the containers on the way from the movie header to each track's sample table.
    static func moveChunkOffsets(in data: inout Data, from start: Int, to end: Int, by delta: Int64) throws {
        let containers: Set<String> = ["trak", "mdia", "minf", "stbl", "edts", "dinf"]
        var offset = start
        while offset + 8 <= end {
            let length = Int(unsigned(data[data.startIndex + offset ..< data.startIndex + offset + 4]))
            let type = String(decoding: data[data.startIndex + offset + 4 ..< data.startIndex + offset + 8], as: UTF8.self)
            guard length >= 8, offset + length <= end else { throw Failure.malformed("a box of the movie header runs past its end") }
            if containers.contains(type) {
                try moveChunkOffsets(in: &data, from: offset + 8, to: offset + length, by: delta)
            } else if type == "stco" || type == "co64" {
                let width = type == "stco" ? 4 : 8
                let count = Int(unsigned(data[data.startIndex + offset + 12 ..< data.startIndex + offset + 16]))
                guard 16 + count * width <= length else { throw Failure.malformed("a chunk table longer than its box") }
                for index in 0..<count {
                    let at = data.startIndex + offset + 16 + index * width
                    let moved = unsigned(data[at ..< at + width]) + UInt64(delta)
                    guard width == 8 || moved <= UInt64(UInt32.max) else { throw Failure.malformed("chunks past 4 GiB in a 32-bit table") }
                    data.replaceSubrange(at ..< at + width, with: width == 4 ? bigEndian(UInt32(moved)) : bigEndian(moved))
                }
            }
            offset += length
        }
    }

    private static func copy(_ reader: FileHandle, from offset: Int64, count: Int64, to writer: FileHandle) throws {
        try reader.seek(toOffset: UInt64(offset))
        var left = count
        while left > 0 {
            guard let chunk = try reader.read(upToCount: Int(min(left, 4 << 20))), !chunk.isEmpty else { throw Failure.unreadable("the file ended early") }
            try writer.write(contentsOf: chunk)
            left -= Int64(chunk.count)
        }
    }

    private static func box(_ type: String, _ body: Data) -> Data {
        bigEndian(UInt32(8 + body.count)) + Data(type.utf8) + body
    }

    private static func unsigned(_ bytes: some Collection<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
}
