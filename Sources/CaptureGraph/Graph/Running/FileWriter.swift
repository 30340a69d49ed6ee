import CaptureModel
import Foundation
import GStreamer
import LinuxIO
import Locking

/// What writes the recording: one file, or its parts, each named as it begins (`RecordingParts`); the
/// file synced every second and locked against a repair while it is written (`FileInProgress`); every
/// track cut at a timed recording's end; the titles and default tracks the muxer cannot write; and a file
/// whose writer failed (a full disk) ended as a crashed one would be.
package final class FileWriter: @unchecked Sendable {
    private let plan: GraphPlan
    private let movie: MovieFileOutput?
    private let pipeline: Pipeline
    private let counters: GraphCounters
    /// A recording in parts: its files; nil for one file.
    let parts: RecordingParts?
    /// The file while it is written.
    private let inProgress = Locked<FileInProgress?>(nil)
    /// What the file keeps when it had to be ended as a crashed one: the summary's figures.
    let repaired = Locked<MatroskaRepair.Result?>(nil)
    /// Whether the writer failed (a full disk): the end of the streams can no longer reach the file.
    let failed = Locked(false)
    /// Told of each file (or part) once it is finished: what uploads it.
    let finished = Locked<(@Sendable (String) -> Void)?>(nil)

    init(plan: GraphPlan, configuration: SessionConfiguration, pipeline: Pipeline, counters: GraphCounters) throws {
        self.plan = plan
        movie = configuration.recordedFile
        self.pipeline = pipeline
        self.counters = counters
        parts = try Self.writeParts(of: plan, movie: movie, in: pipeline, finished: finished)
    }

    /// A recording in parts: each part named as it begins, and the cameras' own tracks asked for a key
    /// frame where the picture's part begins, so that every track of a part starts with one.
    private static func writeParts(of plan: GraphPlan, movie: MovieFileOutput?, in pipeline: Pipeline,
                                   finished: Locked<(@Sendable (String) -> Void)?>) throws -> RecordingParts? {
        guard let movie, let segmenting = movie.segmenting, let writer = plan.mux.flatMap({ pipeline[$0] }) else { return nil }
        let parts = RecordingParts(firstPath: movie.path, segmenting: segmenting, finished: finished)
        writer.nameParts { parts.path(forPart: $0) }
        if let picture = plan.pictureEncoder.flatMap({ pipeline[$0] }) {
            let targets = try plan.isolatedEncoders.compactMap { pipeline[$0] }.map { try $0.staticPad("src") }
            try picture.staticPad("src").forwardKeyFrameRequests(to: targets, rate: Fraction(rate: plan.frameRate))
        }
        return parts
    }

    /// The file is being written once the graph plays.
    func began() {
        guard let movie, parts == nil else { return }
        // Markers an earlier file of the same name left (overwritten with --force) are not this one's.
        MarkerJournal.remove(for: movie.path)
        inProgress.withValue { $0 = FileInProgress(path: movie.path) }
    }

    /// Counts the pictures that reach the file (without a file, those the picture's encoder gives the
    /// streams) and notes where its sound ends. With a `limit`, also cuts every track at it (buffers at or
    /// past it are dropped before the muxer) and calls `reached` once the picture gets there, so a timed
    /// recording is exact to the frame.
    ///
    /// Buffers past the limit are also dropped before every encoder: a machine that cannot encode in real
    /// time has a backlog queued there, and encoding what the file will not keep would only delay the stop.
    func watch(limit: Duration?, reached: @escaping @Sendable () -> Void) throws {
        if let limit {
            counters.cut(at: limit)
            let fired = Locked(false)
            for encoder in plan.encoders {
                let isPicture = encoder == plan.pictureEncoder
                try pipeline[encoder]?.staticPad("sink").addBufferProbe { time in
                    guard let time, time >= limit else { return .pass }
                    if isPicture && fired.withValue({ done in defer { done = true }; return !done }) { reached() }
                    return .drop
                }
            }
        }
        guard let mux = plan.mux.flatMap({ pipeline[$0] }) else {
            try plan.pictureEncoder.flatMap { pipeline[$0] }?.staticPad("src").addBufferProbe { [written = counters.written] time in
                written.bump(time)
                return .pass
            }
            return
        }
        for (index, track) in plan.muxTracks.enumerated() {
            let isPicture = index == 0
            let pad = try mux.staticPad(track.pad)
            let title = track.title.trimmingCharacters(in: .whitespaces)
            if !title.isEmpty { pad.peer?.announceTitle(title + (track.isDefault ? "" : MatroskaFinish.notDefaultMark)) }
            pad.addBufferSpanProbe { [written = counters.written, soundEnd = counters.soundWrittenEnd] time, end in
                guard let time else { return .pass }
                if let limit, time >= limit { return .drop }
                if isPicture { written.bump(time) } else if let end { soundEnd.withValue { $0 = max($0 ?? end, end) } }
                return .pass
            }
        }
    }

    /// Whether the message comes from what writes the file: its file sink, or anything inside the writer
    /// of a recording in parts (which makes a muxer and a sink for each part).
    func isWriter(of message: Message) -> Bool {
        if let sink = plan.fileSink.flatMap({ pipeline[$0] }) { return message.isFrom(sink) }
        guard parts != nil, let writer = plan.mux.flatMap({ pipeline[$0] }) else { return false }
        return message.isFrom(within: writer)
    }

    /// splitmuxsink's word on its parts; whether the message was one.
    func note(_ structure: Structure) -> Bool {
        guard let parts, let location = structure.string("location") else { return false }
        if structure.name == "splitmuxsink-fragment-opened" { parts.began(location) }
        if structure.name == "splitmuxsink-fragment-closed" { parts.ended(location) }
        return true
    }

    /// The file where a full disk stopped it.
    var currentPath: String { parts?.kept.last ?? movie?.path ?? "" }

    /// The file's path, as configured; nil when no file is written (streams alone, photos).
    var path: String? { movie?.path }

    /// What the muxer cannot write: which tracks play by default, and each track's duration. A file the
    /// muxer could not end (the disk filled under it, a stop asked at once) is ended here as a crashed
    /// one would be, giving up a fraction of a second at its end when its incomplete last block did not
    /// leave room for the index. If even that fails, `pipcam repair` can do it once there is room.
    /// Returns whether the file was ended so.
    func finish() -> Bool {
        if let parts {
            parts.finishAll()
            return false
        }
        guard let movie else { return false }
        let result = MatroskaFinish.end(path: movie.path)
        if FileManager.default.fileExists(atPath: movie.path) { finished.value?(movie.path) }
        guard let result else { return false }
        repaired.withValue { $0 = result }
        return true
    }

    /// `finished` hears of each file, or part, once it is finished (its upload); `keep` deletes only the
    /// parts `mayDelete` allows.
    package func watchFiles(finished: @escaping @Sendable (String) -> Void, mayDelete: @escaping @Sendable (String) -> Bool) {
        self.finished.withValue { $0 = finished }
        parts?.mayDelete.withValue { $0 = mayDelete }
    }

    /// What deletes the parts `keep` may now delete (one was uploaded): it holds on to the parts, so it
    /// goes on working once the graph has stopped and its last parts are sent.
    package var partsTidier: @Sendable () -> Void { { [parts] in parts?.tidy() } }

    /// Lets go of the file once the graph has stopped.
    func end() {
        inProgress.withValue { file in
            file?.end()
            file = nil
        }
        parts?.stop()
    }
}
