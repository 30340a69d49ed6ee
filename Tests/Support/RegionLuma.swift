import Foundation

/// The mean brightness of one region of every frame of a recording, in order with the frames' times:
/// how a test sees a camera's place in the picture change (a slate is dimmed) without looking at pixels.
public enum RegionLuma {
    public struct Sample: Sendable {
        public let time: Double
        public let luma: Double
    }

    /// ffmpeg crops the region and averages it to one grey pixel per frame.
    public static func series(path: String, x: Int, y: Int, width: Int, height: Int) throws -> [Sample] {
        let times = try MediaProbe.videoFrameTimes(path: path)
        let result = try Command.run(["sh", "-c",
            "ffmpeg -v error -i '\(path)' -map 0:v:0 -fps_mode passthrough -vf crop=\(width):\(height):\(x):\(y),scale=1:1:flags=area,format=gray -f rawvideo - | od -An -v -tu1"])
        let values = result.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard values.count == times.count else {
            throw ProbeError("\(values.count) region values for \(times.count) frames of \(path): \(result.error)")
        }
        return zip(times, values).map { Sample(time: $0, luma: $1) }
    }
}
