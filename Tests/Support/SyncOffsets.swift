import Foundation

/// How far a recording's sound is from its picture, read from a "sync" camera's flashes and a "sync"
/// microphone's beeps (both on for the first 100 ms of each second of the pipeline's clock).
///
/// A flash's instant is found within its first lit picture: the sync camera makes each picture as bright
/// as the share of its time the flash was on, so the flash began `(1 - brightness)` of a picture after
/// that picture began. A beep's instant is its first loud sample.
public struct SyncOffsets: Sendable {
    public struct Pair: Sendable {
        /// When the flash began, in the file's time (seconds).
        public let flash: Double
        /// When the beep began, in the file's time.
        public let beep: Double
        /// The beep's time less the flash's: positive when the sound comes late.
        public var offset: Double { beep - flash }
    }

    public let pairs: [Pair]
    public let flashes: [Double]
    public let beeps: [Double]
    /// The length of one picture of the video stream read.
    public let frameDuration: Double
    /// When the video stream's first picture is, in the file's time.
    public let pictureStart: Double

    /// The offset furthest from zero.
    public var worst: Double { pairs.map(\.offset).max { abs($0) < abs($1) } ?? .nan }

    /// Reads video stream `video` in the region given (which the sync camera fills) and audio stream `audio`.
    public static func read(path: String, video: Int = 0, region: (x: Int, y: Int, width: Int, height: Int), audio: Int) throws -> SyncOffsets {
        let times = try MediaProbe.videoFrameTimes(path: path, stream: video)
        let result = try Command.run(["sh", "-c",
            "ffmpeg -v error -i '\(path)' -map 0:v:\(video) -fps_mode passthrough -vf crop=\(region.width):\(region.height):\(region.x):\(region.y),scale=1:1:flags=area,format=gray -f rawvideo - | od -An -v -tu1"])
        let lumas = result.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard lumas.count == times.count, times.count > 1 else {
            throw ProbeError("\(lumas.count) region values for \(times.count) frames of \(path): \(result.error)")
        }
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let frame = steps[steps.count / 2]
        let flashes = flashInstants(times: times, lumas: lumas, frame: frame)
        let beeps = try beepTimes(path: path, audio: audio)
        let pairs = flashes.compactMap { flash in
            beeps.min { abs($0 - flash) < abs($1 - flash) }.flatMap { abs($0 - flash) < 0.5 ? Pair(flash: flash, beep: $0) : nil }
        }
        return SyncOffsets(pairs: pairs, flashes: flashes, beeps: beeps, frameDuration: frame, pictureStart: times[0])
    }

    /// The luma read is full range (0 black, 255 white); a picture is lit from a few levels up, and its
    /// share of the flash is its brightness.
    static func flashInstants(times: [Double], lumas: [Double], frame: Double) -> [Double] {
        let lit = 8.0
        return times.indices.dropFirst().compactMap { index in
            guard lumas[index] > lit, lumas[index - 1] <= lit else { return nil }
            return times[index] + frame * (1 - min(1, lumas[index] / 255))
        }
    }

    /// When each beep of audio stream `audio` begins, in the file's time (seconds): a second microphone's
    /// beeps, read without the picture.
    public static func beepTimes(path: String, audio: Int) throws -> [Double] {
        beepInstants(try samples(path: path, stream: audio), rate: 48000)
    }

    /// A beep starts with a rising sine at half of full scale: its first sample over an eighth of full
    /// scale after 200 ms of quiet is within a few microseconds of its start.
    static func beepInstants(_ samples: [Int16], rate: Double) -> [Double] {
        let loud: Int16 = 4096
        var instants: [Double] = []
        var lastLoud = -Int(rate)
        for (index, sample) in samples.enumerated() where sample >= loud || sample <= -loud {
            if index - lastLoud > Int(rate / 5) { instants.append(Double(index) / rate) }
            lastLoud = index
        }
        return instants
    }

    /// The stream as mono 48 kHz samples, the first at the file's time zero (`-copyts` keeps the file's
    /// times; `first_pts=0` pads or trims the start to zero).
    static func samples(path: String, stream: Int) throws -> [Int16] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let result = try Command.run(["ffmpeg", "-v", "error", "-copyts", "-i", path, "-map", "0:a:\(stream)",
                                      "-af", "aresample=first_pts=0", "-ac", "1", "-ar", "48000", "-f", "s16le", "-y", raw])
        guard let data = FileManager.default.contents(atPath: raw), data.count > 2 else {
            throw ProbeError("could not decode audio stream \(stream) of \(path): \(result.error)")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
