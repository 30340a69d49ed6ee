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

    static func encode(_ sample: Sample, direction: String, format: PhotoSettings.Format, quality: Int,
                       thumbnailSize: Int, path: String, thumbnailPath: String) async throws -> Output {
        guard let caps = sample.caps, let info = sample.videoInfo else { throw CaptureError.still("a still without a picture format") }
        let turned = ["90r", "90l", "ul-lr", "ur-ll"].contains(direction)
        let (width, height) = turned ? (info.height, info.width) : (info.width, info.height)
        let ratio = Double(thumbnailSize) / Double(max(width, height))
        let thumbWidth = max(2, Int((Double(width) * ratio / 2).rounded()) * 2)
        let thumbHeight = max(2, Int((Double(height) * ratio / 2).rounded()) * 2)

        let pipeline = try Pipeline(name: "still")
        let source = try AppSource(name: "still-src", caps: caps)
        let flip = try ElementFactory.videoflip.make(properties: [:])
        try flip.set("video-direction", fromString: direction)
        let convert = try ElementFactory.videoconvert.make()
        let tee = try ElementFactory.tee.make()
        let photoQueue = try ElementFactory.queue.make(), thumbQueue = try ElementFactory.queue.make()
        let scale = try ElementFactory.videoscale.make()
        let thumbCaps = try ElementFactory.capsfilter.make()
        try thumbCaps.set("caps", CapsBuilder(.rawVideo).set("width", thumbWidth).set("height", thumbHeight)
            .set("pixel-aspect-ratio", Fraction(1, 1)).caps)
        let thumbConvert = try ElementFactory.videoconvert.make()
        let photoEncoder = try encoder(format, quality: quality), thumbEncoder = try encoder(format, quality: 85)
        let photoSink = try ElementFactory.filesink.make(properties: ["location": path + ".part"])
        let thumbSink = try ElementFactory.filesink.make(properties: ["location": thumbnailPath + ".part"])
        try pipeline.add([source, flip, convert, tee, photoQueue, photoEncoder, photoSink, thumbQueue, scale, thumbCaps, thumbConvert, thumbEncoder, thumbSink])
        try pipeline.link([source, flip, convert, tee])
        try pipeline.link([tee, photoQueue, photoEncoder, photoSink])
        try pipeline.link([tee, thumbQueue, scale, thumbCaps, thumbConvert, thumbEncoder, thumbSink])

        do {
            try await PipelineRun.push([sample], through: pipeline, source: source)
        } catch {
            try? FileManager.default.removeItem(atPath: path + ".part")
            try? FileManager.default.removeItem(atPath: thumbnailPath + ".part")
            throw CaptureError.still("could not encode the still \(URL(fileURLWithPath: path).lastPathComponent): \(error)")
        }
        try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        try FileManager.default.moveItem(atPath: thumbnailPath + ".part", toPath: thumbnailPath)
        return Output(width: width, height: height, pixelFormat: info.format)
    }

    private static func encoder(_ format: PhotoSettings.Format, quality: Int) throws -> Element {
        switch format {
        case .jpeg: return try ElementFactory.jpegenc.make(properties: ["quality": Int32(quality)])
        case .png: return try ElementFactory.pngenc.make()
        }
    }
}
