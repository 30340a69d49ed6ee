import Foundation

/// One decoded video frame as RGB, for checking what a recording shows.
public struct DecodedFrame: Sendable {
    public let width: Int
    public let height: Int
    public let rgb: [UInt8]

    /// Decodes the frame at `seconds` of video stream `stream` with ffmpeg (at 0, also a still image,
    /// which a seek would skip).
    public init(path: String, at seconds: Double, stream: Int = 0, width: Int, height: Int) throws {
        let seek = seconds > 0 ? "-ss \(seconds) " : ""
        let result = try Command.run(["sh", "-c",
            "ffmpeg -v error \(seek)-i '\(path)' -map 0:v:\(stream) -frames:v 1 -f rawvideo -pix_fmt rgb24 - | base64 -w0"])
        guard let data = Data(base64Encoded: result.output.trimmingCharacters(in: .whitespacesAndNewlines)),
              data.count == width * height * 3 else {
            throw ProbeError("could not decode a \(width)x\(height) frame at \(seconds) s of \(path): \(result.error)")
        }
        self.width = width
        self.height = height
        rgb = [UInt8](data)
    }

    /// Decodes a still picture (a PNG, a JPEG) at its own size.
    public init(image path: String) throws {
        let probe = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", path])
        let size = probe.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard size.count == 2 else { throw ProbeError("no picture size in \(path): \(probe.error)") }
        try self.init(path: path, at: 0, width: size[0], height: size[1])
    }

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let offset = (y * width + x) * 3
        return (Int(rgb[offset]), Int(rgb[offset + 1]), Int(rgb[offset + 2]))
    }

    /// The share of pixels in a rectangle for which `matches` holds, sampled on a grid.
    public func fraction(x: Int, y: Int, width: Int, height: Int, where matches: ((r: Int, g: Int, b: Int)) -> Bool) -> Double {
        var hits = 0, total = 0
        for row in Swift.stride(from: y, to: y + height, by: 4) {
            for column in Swift.stride(from: x, to: x + width, by: 4) {
                total += 1
                if matches(pixel(column, row)) { hits += 1 }
            }
        }
        return total == 0 ? 0 : Double(hits) / Double(total)
    }
}

/// Colours of the synthetic cameras.
public enum TestColors {
    /// The SMPTE bars' upper colours, left to right as drawn (unmirrored).
    public enum Bar: String, CaseIterable, Sendable { case white, yellow, cyan, green, magenta, red, blue }

    /// Which upper SMPTE bar a pixel belongs to, if any.
    public static func bar(_ p: (r: Int, g: Int, b: Int)) -> Bar? {
        let high = (r: p.r > 150, g: p.g > 150, b: p.b > 150)
        let low = (r: p.r < 90, g: p.g < 90, b: p.b < 90)
        switch (high, low) {
        case ((true, true, true), _): return .white
        case ((true, true, false), (false, false, true)): return .yellow
        case ((false, true, true), (true, false, false)): return .cyan
        case ((false, true, false), (true, false, true)): return .green
        case ((true, false, true), (false, true, false)): return .magenta
        case ((true, false, false), (false, true, true)): return .red
        case ((false, false, true), (true, true, false)): return .blue
        default: return nil
        }
    }

    /// The bars met along a row from `x` for `width` pixels, each once per run, in order.
    public static func bars(in frame: DecodedFrame, row y: Int, x: Int, width: Int) -> [Bar] {
        var runs: [Bar] = []
        for column in Swift.stride(from: x, to: x + width, by: 2) {
            guard let bar = bar(frame.pixel(column, y)), runs.last != bar else { continue }
            runs.append(bar)
        }
        return runs
    }

    /// Whether bars along a row run in SMPTE's order (yellow then cyan) or mirrored (cyan then yellow).
    public static func barsAreMirrored(_ runs: [Bar]) -> Bool? {
        for (left, right) in zip(runs, runs.dropFirst()) {
            if (left, right) == (.yellow, .cyan) { return false }
            if (left, right) == (.cyan, .yellow) { return true }
        }
        return nil
    }

    /// The dark blue behind the second synthetic camera's ball.
    public static func isInsetBlue(_ p: (r: Int, g: Int, b: Int)) -> Bool {
        p.r < 70 && p.g < 70 && (90...170).contains(p.b)
    }

    /// The first SMPTE bar: white.
    public static func isWhiteBar(_ p: (r: Int, g: Int, b: Int)) -> Bool {
        p.r > 200 && p.g > 200 && p.b > 200
    }

    /// The seventh SMPTE bar: blue.
    public static func isBlueBar(_ p: (r: Int, g: Int, b: Int)) -> Bool {
        p.r < 50 && p.g < 50 && p.b > 150
    }
}

/// The frequency of a pure tone in one audio stream, from its zero crossings.
public enum ToneProbe {
    public static func frequency(path: String, stream: Int, from seconds: Double = 1, length: Double = 1) throws -> Double {
        frequency(of: try samples(path: path, stream: stream, from: seconds, length: length))
    }

    /// The stream in pieces of `length` seconds: each one's level (RMS of 16-bit samples) and frequency, at its time.
    public static func pieces(path: String, stream: Int, length: Double = 0.1) throws -> [(time: Double, level: Double, frequency: Double)] {
        let all = try samples(path: path, stream: stream, from: 0, length: 3600)
        let window = Int(length * 48000)
        return Swift.stride(from: 0, to: all.count - window + 1, by: window).map { start in
            let part = Array(all[start..<start + window])
            let energy = part.reduce(0.0) { $0 + Double($1) * Double($1) }
            return (Double(start) / 48000, (energy / Double(window)).squareRoot(), frequency(of: part))
        }
    }

    /// When a stream sounds its tone: the times of its 20 ms pieces well above silence and within 15 % of
    /// `frequency` (so not the other microphone's tone, an octave away). Pieces this short find the tone a
    /// loaded machine delivers in bursts, which a tenth of a second half silent hides: a microphone heard
    /// in 79 such pieces after a camera's return was heard in no whole tenth.
    public static func heard(path: String, stream: Int, frequency: Double) throws -> [Double] {
        try pieces(path: path, stream: stream, length: 0.02).filter { $0.level > 1000 && abs($0.frequency - frequency) < 0.15 * frequency }.map(\.time)
    }

    /// When a stream that also carries other tones (a mix) sounds `frequency`: the times of its 20 ms pieces
    /// in which that tone alone is as loud as `heard` asks of a whole piece. A tone's amplitude is read with
    /// a Goertzel filter over the piece under a Hann window, which leaves a tone an octave away out.
    public static func heard(inMixOf path: String, stream: Int, frequency: Double) throws -> [Double] {
        try amplitudes(path: path, stream: stream, frequency: frequency).filter { $0.amplitude > 1000 * 2.0.squareRoot() }.map(\.time)
    }

    /// The amplitude (in 16-bit steps) of `frequency` in each 20 ms piece of a stream, at the piece's time.
    public static func amplitudes(path: String, stream: Int, frequency: Double) throws -> [(time: Double, amplitude: Double)] {
        let all = try samples(path: path, stream: stream, from: 0, length: 3600)
        let window = 960
        let step = 2 * Double.pi * frequency / 48000
        let weights = (0..<window).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(window - 1)) }
        return Swift.stride(from: 0, to: all.count - window + 1, by: window).map { start in
            var (previous, beforeThat) = (0.0, 0.0)
            for index in 0..<window {
                (previous, beforeThat) = (weights[index] * Double(all[start + index]) + 2 * cos(step) * previous - beforeThat, previous)
            }
            let power = previous * previous + beforeThat * beforeThat - 2 * cos(step) * previous * beforeThat
            // A Hann window keeps half of a sine's amplitude, spread over the window's length.
            return (Double(start) / 48000, 4 * power.squareRoot() / Double(window))
        }
    }

    private static func samples(path: String, stream: Int, from seconds: Double, length: Double) throws -> [Int16] {
        let result = try Command.run(["sh", "-c",
            "ffmpeg -v error -ss \(seconds) -t \(length) -i '\(path)' -map 0:a:\(stream) -ac 1 -ar 48000 -f s16le - | base64 -w0"])
        guard let data = Data(base64Encoded: result.output.trimmingCharacters(in: .whitespacesAndNewlines)), data.count > 2000 else {
            throw ProbeError("could not decode audio stream \(stream) of \(path): \(result.error)")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    private static func frequency(of samples: [Int16]) -> Double {
        var crossings = 0
        for index in 1..<samples.count where (samples[index - 1] < 0) != (samples[index] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(samples.count) / 48000)
    }
}
