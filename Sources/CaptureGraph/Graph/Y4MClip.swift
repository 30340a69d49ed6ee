import CaptureModel
import Foundation
import GStreamer

/// A raw YUV4MPEG2 clip replayed as a camera, read by mapping the file into memory.
///
/// Each picture goes into the pipeline as a read-only buffer over the mapped bytes. Read by `filesrc`
/// and `y4mdec`, every picture is copied twice on its way in (out of the page cache, then out of
/// y4mdec's adapter): two full-frame copies per camera per picture, which for two 720p clips cost more
/// than the compositor does. Pictures whose bytes are not laid out as GStreamer lays out the format (odd
/// sizes: GStreamer pads rows to 4 bytes) cannot be used in place; those clips go through `y4mdec`.
final class Y4MClip: @unchecked Sendable {
    /// What the clip's first line says, and whether its pictures can be used where they lie.
    struct Header {
        /// Complete raw-video caps, as GStreamer would state them for this clip.
        let caps: Caps
        /// Bytes of one picture, without its `FRAME` line.
        let frameSize: Int
        let rate: (numerator: Int, denominator: Int)
        /// Whether GStreamer's layout of the format is the clip's own (rows not padded, progressive).
        let isMappable: Bool

        /// Reads a YUV4MPEG2 header as `record` will replay it, or says in a few words what in it cannot
        /// be replayed (y4mdec would refuse it only once the recording starts).
        init(line: String) throws(ClipError) {
            var tokens = line.split(separator: " ")
            guard tokens.first == "YUV4MPEG2" else { throw ClipError("is not a YUV4MPEG2 clip") }
            tokens.removeFirst()
            var width: Int?, height: Int?, rate: (numerator: Int, denominator: Int)?, aspect = (1, 1), colours = "420jpeg"
            var progressive = true
            for token in tokens {
                let value = String(token.dropFirst())
                switch token.first {
                case "W": width = Int(value) ?? 0
                case "H": height = Int(value) ?? 0
                case "F": rate = Self.ratio(value) ?? (0, 0)
                case "A": if let a = Self.ratio(value), a.0 > 0, a.1 > 0 { aspect = a }
                case "I":
                    guard ["p", "?", "t", "b"].contains(value) else { throw ClipError("has a YUV4MPEG2 header with interlacing I\(value), which pipcam does not replay") }
                    progressive = value == "p" || value == "?"
                case "C": colours = value
                default: break
                }
            }
            guard let width, let height else { throw ClipError("has a YUV4MPEG2 header without a picture size (W and H)") }
            guard SessionLimits.clipSide.contains(width), SessionLimits.clipSide.contains(height) else {
                throw ClipError("has a YUV4MPEG2 header with a picture of \(width)x\(height); each side is \(SessionLimits.text(SessionLimits.clipSide)) pixels")
            }
            guard let rate, rate.numerator > 0, rate.denominator > 0, let framerate = Fraction(exactly: rate) else {
                throw ClipError("has a YUV4MPEG2 header with \(rate.map { "a frame rate of \($0.numerator):\($0.denominator)" } ?? "no frame rate"); it needs a positive one, such as F30:1")
            }
            // Planes as the clip stores them: each a tightly packed rectangle, in order.
            let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
            let format: String, planes: [(width: Int, height: Int)]
            switch colours {
            case "420jpeg", "420paldv", "420mpeg2", "420":
                format = "I420"; planes = [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
            case "422": format = "Y42B"; planes = [(width, height), (chromaWidth, height), (chromaWidth, height)]
            case "444": format = "Y444"; planes = [(width, height), (width, height), (width, height)]
            case "mono": format = "GRAY8"; planes = [(width, height)]
            default: throw ClipError("has a YUV4MPEG2 header with colour space C\(colours); pipcam replays 8-bit 420, 422, 444 and mono clips")
            }
            let stated = CapsBuilder(.rawVideo).set("format", format).set("width", width).set("height", height)
                .set("framerate", framerate).set("pixel-aspect-ratio", Fraction(exactly: aspect) ?? Fraction(1, 1))
                .set("interlace-mode", progressive ? "progressive" : "interleaved").caps
            guard let info = stated.videoInfo, let complete = stated.completedVideoCaps else {
                throw ClipError("has a YUV4MPEG2 header GStreamer cannot state as a picture")
            }
            caps = complete
            frameSize = planes.reduce(0) { $0 + $1.width * $1.height }
            self.rate = rate
            var offset = 0
            var samePlanes = info.planes.count == planes.count
            for (plane, stored) in zip(info.planes, planes) {
                samePlanes = samePlanes && plane.stride == stored.width && plane.offset == offset
                offset += stored.width * stored.height
            }
            isMappable = progressive && samePlanes && info.size == frameSize
            // y4mdec, which reads the clips that cannot be mapped, has no grey format.
            if format == "GRAY8" && !isMappable { throw ClipError("is a mono YUV4MPEG2 clip whose width (\(width)) is not a multiple of 4, which pipcam cannot replay") }
        }

        private static func ratio(_ text: String) -> (Int, Int)? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]) else { return nil }
            return (n, d)
        }
    }

    /// How a clip replayed as a camera is read.
    enum Reading {
        /// Mapped, its pictures pushed where they lie.
        case mapped(Header)
        /// Raw, but laid out or described otherwise: read by filesrc and y4mdec.
        case raw(Header)
        /// Anything else: decoded by decodebin.
        case decoded
        /// A YUV4MPEG2 clip whose header cannot be replayed, and why.
        case unreadable(ClipError)
    }

    static func reading(ofFileAt path: String) -> Reading {
        guard let line = firstLine(ofFileAt: path), line.hasPrefix("YUV4MPEG2 ") else { return .decoded }
        do {
            let header = try Header(line: line)
            return header.isMappable ? .mapped(header) : .raw(header)
        } catch {
            return .unreadable(error)
        }
    }

    /// Whether a clip with this header holds a whole first picture after it ("FRAME", then the picture).
    static func holdsAPicture(ofFileAt path: String, header: Header) -> Bool {
        guard let line = firstLine(ofFileAt: path), let size = ReadableFile.size(at: path) else { return false }
        return size >= Int64(line.utf8.count + 1 + "FRAME\n".utf8.count + header.frameSize)
    }

    /// The first line of a file, if it is text within its first kilobyte.
    private static func firstLine(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 1024)).flatMap { start in start.withUnsafeBytes { firstLine(in: $0) } }
    }

    private static func firstLine(in bytes: UnsafeRawBufferPointer) -> String? {
        guard let end = bytes.prefix(1024).firstIndex(of: 0x0A) else { return nil }
        return String(bytes: bytes[..<end], encoding: .ascii)
    }

    let header: Header
    private let base: UnsafeMutableRawPointer
    private let length: Int
    /// Kept open to see the file's size before each picture: reading a mapped page past the end of a
    /// file cut short while it plays would kill the process (SIGBUS), and the recording with it.
    private let descriptor: Int32
    /// Where the next picture's `FRAME` line starts, and its number.
    private var next: (offset: Int, index: Int)
    /// Pages before this offset have been given back (see `giveBack`).
    private var givenBackUpTo = 0
    private let lock = NSLock()

    /// Maps the clip. Fails with a one-line reason naming the file.
    init(path: String) throws {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ClipError("\(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else {
            close(descriptor)
            throw ClipError("\(path): cannot read its size")
        }
        length = Int(status.st_size)
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            close(descriptor)
            throw ClipError("\(path): cannot map it: \(String(cString: strerror(errno)))")
        }
        base = mapped
        guard let line = Self.firstLine(in: UnsafeRawBufferPointer(start: mapped, count: length)),
              let header = try? Header(line: line), header.isMappable else {
            munmap(mapped, length)
            close(descriptor)
            throw ClipError("\(path): not a raw YUV4MPEG2 clip pipcam can map")
        }
        self.header = header
        next = (line.utf8.count + 1, 0)
    }

    deinit {
        munmap(base, length)
        close(descriptor)
    }

    /// The file's size now, which is less than what was mapped if it was cut short since.
    private var sizeNow: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? min(length, Int(status.st_size)) : 0
    }

    /// Pushes the next picture, or ends the stream where the clip ends (or stops being a clip).
    func feed(_ feed: AppSource.Feed) {
        lock.lock()
        let picture = nextPicture()
        lock.unlock()
        guard let picture else { return feed.endOfStream() }
        let rate = header.rate
        func time(_ index: Int) -> Duration { .nanoseconds(Int64(index) * 1_000_000_000 * Int64(rate.denominator) / Int64(rate.numerator)) }
        feed.push(base + picture.offset, count: header.frameSize, presentationTime: time(picture.index),
                  duration: time(picture.index + 1) - time(picture.index),
                  keepingAlive: LentPicture(clip: self, bytes: picture.offset..<picture.offset + header.frameSize))
    }

    /// Unmaps the pages of pictures GStreamer no longer holds, a picture's worth at a time (a call
    /// costs microseconds; 8 MB at a time kept 10 MB of each 720p clip resident). They stay in the page
    /// cache, but stop counting in the recording's memory: mapped and left alone, every page read would
    /// stay in its resident size, the size of the clip by its end. Pictures are let go of in about the
    /// order they were pushed; a page unmapped while a later-released picture still reads it is only
    /// mapped again from the cache (the mapping is private and never written).
    fileprivate func giveBack(_ bytes: Range<Int>) {
        lock.lock()
        defer { lock.unlock() }
        let end = bytes.upperBound / Self.pageSize * Self.pageSize
        guard end - givenBackUpTo >= header.frameSize else { return }
        madvise(base + givenBackUpTo, end - givenBackUpTo, MADV_DONTNEED)
        givenBackUpTo = end
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    private func nextPicture() -> (offset: Int, index: Int)? {
        let (offset, index) = next
        let length = sizeNow
        // "FRAME", optional parameters, then a newline, then the picture.
        guard offset + 6 <= length, memcmp(base + offset, "FRAME", 5) == 0 else { return nil }
        let line = UnsafeRawBufferPointer(start: base + offset, count: min(length - offset, 1024))
        guard let end = line.firstIndex(of: 0x0A) else { return nil }
        let start = offset + end + 1
        guard start + header.frameSize <= length else { return nil }
        next = (start + header.frameSize, index + 1)
        return (start, index)
    }
}

/// A picture lent to GStreamer: keeps the mapping alive while it is held, and gives its pages back after.
private final class LentPicture {
    let clip: Y4MClip
    let bytes: Range<Int>
    init(clip: Y4MClip, bytes: Range<Int>) { self.clip = clip; self.bytes = bytes }
    deinit { clip.giveBack(bytes) }
}

/// A clip that cannot be replayed, with the reason.
struct ClipError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private extension Fraction {
    /// A header's ratio, when both its terms fit GStreamer's.
    init?(exactly ratio: (Int, Int)) {
        guard let numerator = Int32(exactly: ratio.0), let denominator = Int32(exactly: ratio.1) else { return nil }
        self.init(numerator, denominator)
    }
}
