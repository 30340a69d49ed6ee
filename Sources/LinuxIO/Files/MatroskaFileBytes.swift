import CaptureModel
import Foundation

/// A Matroska file opened for reading and patching in place, read element by element with `pread`:
/// a repair touches the headers of the blocks, never the pictures in them.
final class MatroskaFileBytes {
    /// An element's place in the file: where it starts, where its size is written (and in how many
    /// bytes), where its body starts, and the body's size (nil: unknown, as an unfinished one's).
    struct Element {
        let id: UInt32
        let offset: Int64
        let sizeOffset: Int64
        let sizeLength: Int
        let body: Int64
        let size: Int64?

        var end: Int64? { size.map { body + $0 } }
    }

    let path: String
    private let descriptor: Int32
    private(set) var size: Int64

    init(path: String, writable: Bool) throws {
        self.path = path
        descriptor = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC)
        guard descriptor >= 0 else { throw MatroskaRepair.Failure.unreadable(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw MatroskaRepair.Failure.unreadable(String(cString: strerror(errno))) }
        size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func bytes(at offset: Int64, count: Int) -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: Int(min(Int64(count), size - offset)))
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        return read > 0 ? Array(buffer.prefix(read)) : []
    }

    /// The element whose header starts at `offset`; nil where no well-formed header is (the end of the
    /// file, zeros, a header cut off).
    func element(at offset: Int64) -> Element? {
        let header = bytes(at: offset, count: 12)
        guard let id = Self.number(header, from: 0, keepingMarker: true), id.length <= 4,
              let size = Self.number(header, from: id.length, keepingMarker: false) else { return nil }
        let unknown = size.value == (UInt64(1) << (7 * UInt64(size.length))) - 1
        let body = offset + Int64(id.length + size.length)
        return Element(id: UInt32(id.value), offset: offset, sizeOffset: offset + Int64(id.length), sizeLength: size.length,
                       body: body, size: unknown ? nil : Int64(clamping: size.value))
    }

    /// The element's body, when it is small enough to hold (a header's fields, a block's first bytes).
    func body(of element: Element, limit: Int = 1 << 20) -> [UInt8] {
        bytes(at: element.body, count: Int(min(element.size ?? 0, Int64(limit))))
    }

    /// An element read into memory: its id, its body, and where its header and body start in the file.
    struct Child {
        let id: UInt32
        let body: [UInt8]
        let offset: Int64
        let bodyOffset: Int64

        var length: Int { Int(bodyOffset - offset) + body.count }
        var children: [Child] { MatroskaFileBytes.children(in: body, at: bodyOffset) }
    }

    /// The elements inside `parent`'s body.
    func children(of parent: Element) -> [Child] { Self.children(in: body(of: parent), at: parent.body) }

    /// The elements in `data`, which starts at `offset` in the file; a broken one ends the list.
    static func children(in data: [UInt8], at offset: Int64) -> [Child] {
        var result: [Child] = []
        var position = 0
        while let id = number(data, from: position, keepingMarker: true),
              let size = number(data, from: position + id.length, keepingMarker: false),
              size.value <= UInt64(data.count - position - id.length - size.length) {
            let start = position + id.length + size.length, end = start + Int(size.value)
            result.append(Child(id: UInt32(truncatingIfNeeded: id.value), body: Array(data[start..<end]),
                                offset: offset + Int64(position), bodyOffset: offset + Int64(start)))
            position = end
        }
        return result
    }

    func write(_ bytes: [UInt8], at offset: Int64) throws {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        // A write cut short without an error is a disk that filled on the way.
        if written >= 0 && written < bytes.count || written < 0 && errno == ENOSPC { throw MatroskaRepair.Failure.noRoom }
        guard written == bytes.count else { throw MatroskaRepair.Failure.unwritable(String(cString: strerror(errno))) }
        size = max(size, offset + Int64(bytes.count))
    }

    func truncate(at length: Int64) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw MatroskaRepair.Failure.unwritable(String(cString: strerror(errno))) }
        size = length
    }

    func sync() { fsync(descriptor) }

    /// A variable-length EBML number at `start`: the first byte's leading zeros say how many follow.
    static func number(_ bytes: some RandomAccessCollection<UInt8>, from start: Int, keepingMarker: Bool) -> (value: UInt64, length: Int)? {
        let base = bytes.startIndex
        guard start < bytes.count else { return nil }
        let first = bytes[bytes.index(base, offsetBy: start)]
        guard first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard start + length <= bytes.count else { return nil }
        var value = UInt64(keepingMarker ? first : first & (0xFF >> length))
        for index in 1..<length { value = value << 8 | UInt64(bytes[bytes.index(base, offsetBy: start + index)]) }
        return (value, length)
    }

    /// A big-endian unsigned integer.
    static func unsigned(_ bytes: some Collection<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
}

/// EBML as the repair writes it: ids, sizes and unsigned values.
enum EBMLWriter {
    /// `value` as a size of exactly `length` bytes (the length a placeholder left room for).
    static func size(_ value: UInt64, length: Int) -> [UInt8]? {
        guard length >= 1, length <= 8, value < (UInt64(1) << (7 * UInt64(length))) - 1 else { return nil }
        var bytes = (0..<length).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(length - 1 - $0))) }
        bytes[0] |= UInt8(0x80 >> (length - 1))
        return bytes
    }

    /// An element with an unsigned value, in as few bytes as it takes.
    static func unsigned(_ id: UInt32, _ value: UInt64) -> [UInt8] {
        var body = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        while body.count > 1 && body[0] == 0 { body.removeFirst() }
        return element(id, body)
    }

    static func element(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
        let length = (1...8).first { body.count < (1 << (7 * $0)) - 1 } ?? 8
        return Self.id(id) + size(UInt64(body.count), length: length)! + body
    }

    /// An id's bytes: as many as it has (its leading bits say how many).
    static func id(_ id: UInt32) -> [UInt8] {
        var bytes = withUnsafeBytes(of: id.bigEndian) { Array($0) }
        while bytes[0] == 0 { bytes.removeFirst() }
        return bytes
    }
}
