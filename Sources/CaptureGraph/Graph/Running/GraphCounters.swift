import CaptureModel
import GStreamer
import Locking

/// Every frame count of a running graph, in one place: each camera's frames as captured and as they
/// reach the picture, the pictures the compositor was too late for, the composed pictures before and
/// after the queue that drops them when encoding falls behind, the pictures skipped under a throttle
/// rung, and those written; and the sound each microphone lost on its way. Every total a user reads (the
/// status line, the events file, the summary) is made from them, and none goes down.
package final class GraphCounters: @unchecked Sendable {
    private let plan: GraphPlan
    private let pipeline: Pipeline
    private var captured: [String: FrameCounter] = [:]
    private var delivered: [String: FrameCounter] = [:]
    /// Timestamps of the composed picture as it enters the file.
    let written = FrameCounter()
    /// Where the sound written to the file ends, the latest of its tracks. It can run past the last
    /// picture: a machine that drops pictures may have written its last well before the end.
    let soundWrittenEnd = Locked<Duration?>(nil)
    /// Composed pictures before and after the queue that drops them when encoding falls behind.
    private let composed = FrameCounter(), encoded = FrameCounter()
    /// Pictures skipped on purpose under a throttle rung (not drops: the rung lowered the rate).
    package let skipped = FrameCounter()
    /// Pictures never composed that no throttle rung asked to skip: the compositor was too late for
    /// them (`PicturePacing`). Dropped.
    let late = FrameCounter()
    /// The highest dropped total reported so far (see `droppedTotal`).
    private let droppedHighest = Locked(0)
    /// Where a timed recording cuts every track (`FileWriter.watch`): a camera's frames from there on are
    /// not the file's, so they are not counted, nor is sound lost past it.
    private let fileLimit = Locked<Duration?>(nil)
    /// Where each microphone's sound joins the file's mixers, by input.
    private var soundGaps: [String: [SoundGaps]] = [:]
    /// Whether frames are moving (the graph started and has not stopped): some are then on their way.
    private let isRunning: @Sendable () -> Bool

    /// Counts at each camera's capture and delivery pads, and around the picture's queue.
    init(plan: GraphPlan, pipeline: Pipeline, isRunning: @escaping @Sendable () -> Bool) throws {
        self.plan = plan
        self.pipeline = pipeline
        self.isRunning = isRunning
        for tap in plan.cameraTaps {
            captured[tap.inputID] = try count(at: pipeline[tap.captured]?.staticPad("sink"), from: tap.countedFrom)
            if let element = tap.delivered, let padName = tap.deliveredPad {
                delivered[tap.inputID] = try count(at: pipeline[element]?.staticPad(padName))
            }
        }
        for input in plan.inputs where !input.soundJoins.isEmpty {
            let source = try input.soundSource.flatMap { pipeline[$0] }?.staticPad("sink")
            soundGaps[input.id] = try input.soundJoins.compactMap { pipeline[$0] }.map { SoundGaps(at: try $0.staticPad("src"), from: source) }
        }
        if let queue = plan.pictureQueue.flatMap({ pipeline[$0] }) {
            try queue.staticPad("sink").addBufferProbe { [composed] time in composed.bump(time); return .pass }
            try queue.staticPad("sink").freeBackloggedFrames(beyond: GraphBuilder.steadyPictureBacklog)
            try queue.staticPad("src").addBufferProbe { [encoded] time in encoded.bump(time); return .pass }
        }
    }

    private func count(at pad: Pad?, from start: Duration = .zero) -> FrameCounter {
        let counter = FrameCounter()
        pad?.addBufferProbe { [fileLimit] time in
            if let time, let limit = fileLimit.value, time >= limit { return .pass }
            if let time, time < start { return .pass }
            counter.bump(time)
            return .pass
        }
        return counter
    }

    /// Frames each camera delivered, and how many of them never reached the picture. While running, the
    /// frames still on their way are not counted as dropped (so a count may fall short, never over).
    package var cameraFrames: [(inputID: String, frames: Int, dropped: Int)] {
        let running = isRunning()
        return plan.cameraTaps.map { tap in
            let frames = captured[tap.inputID]?.value ?? 0
            let reached = delivered[tap.inputID]?.value ?? frames
            return (tap.inputID, frames, max(0, frames - reached - (running ? tap.framesOnTheWay : 0)))
        }
    }

    /// Where a timed recording cuts every track: nothing past it is counted.
    func cut(at limit: Duration) {
        fileLimit.withValue { $0 = limit }
        for gaps in soundGaps.values.joined() { gaps.end(at: limit) }
    }

    /// Each microphone's sound lost on its way into the file so far, by input (none when nothing was): the
    /// most that one of its tracks lost (the mix, its own), as the same sound feeds both.
    package var soundLost: [String: Duration] {
        soundGaps.compactMapValues { gaps in gaps.map(\.lost).max().flatMap { $0 > .zero ? $0 : nil } }
    }

    /// Pictures and camera frames lost so far, as a total that never goes down: it is worked out from
    /// counters read one after the other while frames move, so a reading can come out a little short of
    /// the one before; a total users see (the status line, the events file) keeps the highest so far.
    package var droppedTotal: Int {
        let now = cameraFrames.reduce(droppedPictures) { $0 + $1.dropped }
        return droppedHighest.withValue { highest in
            highest = max(highest, now)
            return highest
        }
    }

    /// Pictures dropped so far: never composed, the compositor being too late for them, or composed and
    /// dropped before encoding. Those still waiting in the queue are not: counted as
    /// dropped, they made a recording that keeps up look like it loses frames whenever it is sampled.
    /// Read in the order pictures flow, so a picture moving on meanwhile is never counted as lost; while
    /// running, one picture can be between a counter and the queue at each end, in neither count yet.
    var droppedPictures: Int {
        let offered = composed.value
        let waiting = pictureQueueLevel?.level ?? 0
        let inHand = isRunning() ? 2 : 0
        return late.value + max(0, offered - waiting - encoded.value - inHand)
    }

    /// Frames offered to the picture and lost on the way (by cameras' queues, and before encoding).
    package var pressureCounts: PressureMonitor.FrameCounts {
        PressureMonitor.FrameCounts(delivered: max(0, encoded.value), dropped: droppedTotal)
    }

    /// How full the queue before the picture's encoder is (0…1): near full, encoding is falling behind.
    package var encoderQueueFill: Double? {
        guard let queue = pictureQueueLevel, queue.limit > 0 else { return nil }
        return Double(queue.level) / Double(queue.limit)
    }

    /// Pictures waiting in the queue before the picture's encoder, and how many it holds.
    private var pictureQueueLevel: (level: Int, limit: Int)? {
        guard let queue = plan.pictureQueue.flatMap({ pipeline[$0] }),
              case .uint(let level)? = try? queue.property("current-level-buffers"),
              case .uint(let limit)? = try? queue.property("max-size-buffers") else { return nil }
        return (Int(level), Int(limit))
    }
}
