import CaptureModel
import Foundation
import GStreamer

/// Encodes one still and its thumbnail in a small pipeline of its own, apart from the recording:
///
///     appsrc ─ videoflip ─ videoconvert ─ tee ─┬─ queue ─ jpegenc/pngenc ─ filesink (photo)
///                                              └─ queue ─ videoscale ─ caps ─ videoconvert ─ jpegenc/pngenc ─ filesink (thumbnail)
///
/// Files are written under a temporary name and renamed once complete, so a failed or interrupted
/// capture never leaves a half-written image.
enum StillEncoder {
    struct Output {
        let width: Int
        let height: Int
        let pixelFormat: String
    }

    static func encode(_ sample: Sample, direction: VideoDirection, format: PhotoSettings.Format, quality: Int,
                       thumbnailSize: Int, path: String, thumbnailPath: String) async throws -> Output {
        guard let caps = sample.caps, let info = sample.videoInfo else { throw CaptureError.photo(.stillWithoutFormat) }
        let (width, height) = direction.swapsSides ? (info.height, info.width) : (info.width, info.height)
        let ratio = Double(thumbnailSize) / Double(max(width, height))
        let thumbWidth = max(2, Int((Double(width) * ratio / 2).rounded()) * 2)
        let thumbHeight = max(2, Int((Double(height) * ratio / 2).rounded()) * 2)

        let photoEncoder = encoder(format, quality: quality), thumbEncoder = encoder(format, quality: 85)
        var plan = GraphPlan()
        let source = plan.addAppSource("still-src", caps: caps)
        plan.chain([source.name, plan.add("still-flip", .videoflip, [("video-direction", .string(direction.rawValue))]),
                    plan.add("still-convert", .videoconvert), plan.add("still-tee", .tee)])
        plan.chain([plan.add("photo-queue", .queue), plan.add("photo-encode", photoEncoder.factory, photoEncoder.properties),
                    plan.add("photo-file", .filesink, [("location", .string(path + ".part"))])])
        let thumbCaps = CapsBuilder(.rawVideo).set("width", thumbWidth).set("height", thumbHeight).set("pixel-aspect-ratio", Fraction(1, 1)).caps
        plan.chain([plan.add("thumb-queue", .queue), plan.add("thumb-scale", .videoscale), plan.add("thumb-caps", .capsfilter, [("caps", .caps(thumbCaps))]),
                    plan.add("thumb-convert", .videoconvert), plan.add("thumb-encode", thumbEncoder.factory, thumbEncoder.properties),
                    plan.add("thumb-file", .filesink, [("location", .string(thumbnailPath + ".part"))])])
        plan.link("still-tee", "src_0", to: "photo-queue")
        plan.link("still-tee", "src_1", to: "thumb-queue")

        do {
            try await PipelineRun.push([sample], through: plan, source: source, name: "still")
        } catch {
            try? FileManager.default.removeItem(atPath: path + ".part")
            try? FileManager.default.removeItem(atPath: thumbnailPath + ".part")
            throw CaptureError.photo(.stillNotEncoded(file: URL(fileURLWithPath: path).lastPathComponent, reason: "\(error)"))
        }
        try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        try FileManager.default.moveItem(atPath: thumbnailPath + ".part", toPath: thumbnailPath)
        return Output(width: width, height: height, pixelFormat: info.format)
    }

    private static func encoder(_ format: PhotoSettings.Format, quality: Int) -> (factory: ElementFactory, properties: [(String, PropertyValue)]) {
        switch format {
        case .jpeg: return (.jpegenc, [("quality", .int(Int64(quality)))])
        case .png: return (.pngenc, [])
        }
    }
}
