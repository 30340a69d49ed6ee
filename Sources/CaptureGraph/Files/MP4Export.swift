import CaptureModel
import Foundation
import GStreamer
import LinuxIO
import Locking

/// `pipcam export`: a recording as an MP4, for editors that do not read Matroska. The pictures (the
/// composed one and each camera's own) are copied as they are, never re-encoded; the sound is made AAC,
/// the one sound an MP4 editor is sure to read (Opus in MP4 is not); its markers become chapters
/// (`MP4Chapters`). Written beside the target and
/// renamed into place at the end, so a failed export leaves no half file.
public enum MP4Export {
    /// AAC at this rate is transparent for speech and music alike.
    static let soundBitrate = 192_000

    /// Exports `input` to `output`; `progress` hears the share done (0…1) about once a second.
    public static func run(from input: String, to output: String, progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws {
        let length = MatroskaHeader.read(path: input)?.duration
        let partial = URL(fileURLWithPath: output).deletingLastPathComponent()
            .appendingPathComponent(".\(URL(fileURLWithPath: output).lastPathComponent).partial").path
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let pipeline = try Pipeline(name: "export")
        let reader = try ElementFactory.filesrc.make(name: "read", properties: ["location": input])
        let demuxer = try ElementFactory.matroskademux.make(name: "tracks")
        let muxer = try ElementFactory.mp4mux.make(name: "mux", properties: ["faststart": true])
        let writer = try ElementFactory.filesink.make(name: "write", properties: ["location": partial])
        try pipeline.add(reader, demuxer, muxer, writer)
        try pipeline.link(reader, demuxer)
        try pipeline.link(muxer, writer)
        let failure = Locked<String?>(nil)
        demuxer.onPadAdded { pad in
            do {
                try attach(pad, to: muxer, in: pipeline)
            } catch {
                failure.withValue { $0 = $0 ?? "\(error)" }
            }
        }
        let watch = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                if let length, length > .zero, let done = pipeline.position { progress(min(1, done / length)) }
            }
        }
        defer { watch.cancel() }
        // Every track of an hour's recording is read and its sound encoded: far quicker than real time.
        let timeout = Duration.seconds(60) + (length ?? .zero)
        do {
            try await pipeline.runToEnd(timeout: timeout)
        } catch {
            throw CaptureError.exportFailed(reason: failure.value ?? "\(error)")
        }
        // The recording's markers become the MP4's chapters; the header grows, so it is written anew.
        // The MP4 begins at zero where the recording (a later part) may not: its chapters count from its start.
        let chapters = MatroskaChapters.read(path: input)
        let markers = chapters.markers.map { Marker(title: $0.title, time: max(.zero, $0.time - chapters.start)) }
        if !markers.isEmpty {
            let chaptered = partial + ".chapters"
            defer { try? FileManager.default.removeItem(atPath: chaptered) }
            do {
                // The file is copied whole: on a thread of its own, not the caller's.
                try await Blocking.run { try MP4Chapters.write(markers, from: partial, to: chaptered) }
            } catch {
                throw CaptureError.exportFailed(reason: "the chapters: \(error)")
            }
            try FileManager.default.moveItem(atPath: chaptered, toPath: output)
            return
        }
        try FileManager.default.moveItem(atPath: partial, toPath: output)
    }

    /// A track of the recording, into the MP4: a picture as it is, sound made AAC.
    private static func attach(_ pad: Pad, to muxer: Element, in pipeline: Pipeline) throws {
        let kind = (pad.currentCaps ?? pad.queryCaps()).structures.first?.name ?? ""
        let chain: [Element]
        let template: String
        switch kind {
        case "video/x-h264":
            chain = [try ElementFactory.queue.make(), try ElementFactory.h264parse.make()]
            template = "video_%u"
        case "audio/x-opus":
            chain = [try ElementFactory.queue.make(), try ElementFactory.opusdec.make(), try ElementFactory.audioconvert.make(),
                     try ElementFactory.audioresample.make(), try ElementFactory.aacEncoder.make(properties: ["bitrate": soundBitrate]),
                     try ElementFactory.aacparse.make()]
            template = "audio_%u"
        default:
            return
        }
        try pipeline.add(chain)
        try pipeline.link(chain)
        try pad.link(to: try chain[0].staticPad("sink"))
        try chain.last!.staticPad("src").link(to: try muxer.requestPad(template))
        for element in chain { _ = element.syncStateWithParent() }
    }
}
