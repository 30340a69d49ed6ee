import CaptureModel
import Foundation
import GStreamer

/// The last seconds of the encoded picture, kept in memory as references to the encoder's own buffers,
/// so a live photo is cut from what was recorded: no second encoder, no re-encode.
final class LivePhotoRing: @unchecked Sendable {
    /// Enough for 1.5 s before the shutter plus the key frame before that, with a margin.
    static let kept: Duration = .seconds(5)

    private struct Waiter {
        let id: Int
        let time: Duration
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let lock = NSLock()
    private var samples: [(time: Duration, sample: Sample)] = []
    private var waiters: [Waiter] = []
    private var nextWaiter = 0
    private var ended = false

    /// On the streaming thread, for every encoded picture.
    func add(_ sample: Sample) {
        guard let time = sample.runningTime else { return }
        let ready: [Waiter] = lock.withLock {
            samples.append((time, sample))
            if let first = samples.firstIndex(where: { $0.time >= time - Self.kept }), first > 0 { samples.removeFirst(first) }
            let ready = waiters.filter { $0.time <= time }
            waiters.removeAll { $0.time <= time }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// The stream ended: nothing more will come.
    func finish() {
        let all: [Waiter] = lock.withLock {
            ended = true
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in all { waiter.continuation.resume(returning: false) }
    }

    /// The running time of the oldest and newest picture kept.
    var span: (first: Duration, last: Duration)? {
        lock.withLock { samples.first.flatMap { first in samples.last.map { (first.time, $0.time) } } }
    }

    /// Waits until a picture at or after `time` has arrived; false if the stream ended or time ran out first.
    func wait(until time: Duration, timeout: Duration) async -> Bool {
        let id: Int = lock.withLock { nextWaiter += 1; return nextWaiter }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.resume(id, false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let immediate: Bool? = lock.withLock {
                if let last = samples.last, last.time >= time { return true }
                if ended { return false }
                waiters.append(Waiter(id: id, time: time, continuation: continuation))
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func resume(_ id: Int, _ result: Bool) {
        let waiter: Waiter? = lock.withLock {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: result)
    }

    /// The pictures from the last key frame at or before `start` up to `end`: a clip that decodes on its own.
    func clip(from start: Duration, to end: Duration) -> [Sample] {
        lock.withLock {
            let keyFrames = samples.indices.filter { samples[$0].sample.isKeyFrame }
            guard let first = keyFrames.last(where: { samples[$0].time <= start }) ?? keyFrames.first else { return [] }
            return samples[first...].filter { $0.time <= end }.map(\.sample)
        }
    }
}

/// Writes encoded pictures to a Matroska file of their own, starting at zero.
enum ClipWriter {
    static func write(_ samples: [Sample], to path: String) async throws {
        guard let first = samples.first, let caps = first.caps, let start = first.runningTime else {
            throw CaptureError.photo(.livePhotoWithoutPictures)
        }
        var plan = GraphPlan()
        let source = plan.addAppSource("clip-src", caps: caps)
        plan.chain([source.name, plan.add("clip-mux", .matroskamux, [("writing-app", .string("pipcam"))]),
                    plan.add("clip-file", .filesink, [("location", .string(path + ".part"))])])
        do {
            try await PipelineRun.push(samples, through: plan, source: source, name: "live-photo", startingAt: start)
        } catch {
            try? FileManager.default.removeItem(atPath: path + ".part")
            throw CaptureError.photo(.livePhotoNotWritten(reason: "\(error)"))
        }
        try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
    }
}
