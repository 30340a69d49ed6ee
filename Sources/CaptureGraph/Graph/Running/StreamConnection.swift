import CaptureModel
import Dispatch
import Foundation
import GStreamer
import Locking

/// One stream while the recording runs: its pipeline made at a key frame, fed the recording's encoded
/// buffers, left behind by whole groups of pictures when the network falls behind, and made again after
/// a failure, with a growing wait (1, 2, 4 … 30 s). Buffers arrive on the recording's streaming threads
/// and are only handed on or dropped there: nothing here ever holds the recording back.
final class StreamConnection: @unchecked Sendable {
    let stream: StreamOutput
    /// How far behind the stream may fall (pictures queued for the network) before whole groups of
    /// pictures are left out: a second or two of a stall is ridden out, a longer one costs the viewers
    /// the stall, never more.
    static let behindLimit: Duration = .seconds(2)
    static let retryWaits: [Duration] = [1, 2, 4, 8, 16, 30].map { .seconds($0) }

    /// `off`: stopped by hand while the recording goes on; `stopped`: ended with the recording.
    private enum Phase { case waitingForKeyFrame, connecting, live, retrying, off, stopped }

    /// A made pipeline and its parts.
    private final class Made: @unchecked Sendable {
        let pipeline: Pipeline
        let picture: AppSource
        let sound: AppSource?
        var subscription: BusSubscription?
        init(pipeline: Pipeline, picture: AppSource, sound: AppSource?) {
            self.pipeline = pipeline
            self.picture = picture
            self.sound = sound
        }
    }

    private let lock = NSLock()
    /// Starts and stops pipelines: state changes of network sinks may block for a while.
    private let work: DispatchQueue
    private let hasSound: Bool
    private let requestKeyFrame: @Sendable () -> Void
    private var onEvent: @Sendable (StreamEvent) -> Void = { _ in }
    private var onStartFailure: @Sendable (CaptureError) -> Void = { _ in }
    private var phase = Phase.waitingForKeyFrame
    private var made: Made?
    private var soundCaps: Caps?
    /// The running time of the key frame the current pipeline began with: its zero.
    private var origin: Duration = .zero
    private var behind = false, droppedNow = 0, keyFrameAsked = false
    private var failures = 0, everLive = false
    private var liveSince: ContinuousClock.Instant?
    private var counts = (live: Duration.zero, reconnects: 0, bytes: Int64(0), dropped: 0)
    private var window = (start: ContinuousClock.now, bytes: Int64(0)), kilobitsPerSecond = 0

    init(_ stream: StreamOutput, hasSound: Bool, requestKeyFrame: @escaping @Sendable () -> Void) {
        self.stream = stream
        self.hasSound = hasSound
        self.requestKeyFrame = requestKeyFrame
        work = DispatchQueue(label: "pipcam.stream.\(stream.name)")
    }

    /// Where its events go, and a required stream's failure to start.
    func start(onEvent: @escaping @Sendable (StreamEvent) -> Void, onStartFailure: @escaping @Sendable (CaptureError) -> Void) {
        lock.withLock {
            self.onEvent = onEvent
            self.onStartFailure = onStartFailure
        }
    }

    // MARK: buffers, on the recording's streaming threads

    func deliverPicture(_ sample: Sample) {
        let ask: Bool = lock.withLock {
            switch phase {
            case .stopped, .retrying, .off:
                return false
            case .waitingForKeyFrame:
                guard sample.isKeyFrame, let caps = sample.caps, !hasSound || soundCaps != nil else { return askOnce() }
                guard begin(at: sample, caps: caps) else { return false }
                push(sample, to: made?.picture)
                return false
            case .connecting, .live:
                return passOrLeave(sample)
            }
        }
        if ask { requestKeyFrame() }
    }

    func deliverSound(_ sample: Sample) {
        lock.withLock {
            if soundCaps == nil { soundCaps = sample.caps }
            guard phase == .connecting || phase == .live, !behind, let time = sample.runningTime, time >= origin else { return }
            push(sample, to: made?.sound)
        }
    }

    /// Within the limit, the picture goes on; beyond it, pictures are left out up to a key frame that
    /// comes once the queue has drained to half the limit (asked for then).
    private func passOrLeave(_ sample: Sample) -> Bool {
        let queued = made.flatMap { try? $0.picture.property("current-level-time") }.flatMap { value -> Duration? in
            if case .uint(let nanoseconds) = value { return .nanoseconds(Int64(nanoseconds)) }
            return nil
        } ?? .zero
        if behind {
            if sample.isKeyFrame && queued <= Self.behindLimit / 2 {
                behind = false
                let dropped = droppedNow
                droppedNow = 0
                let report = onEvent
                work.async { report(StreamEvent(stream: self.stream.name, kind: .dropped(pictures: dropped))) }
                push(sample, to: made?.picture)
                return false
            }
            droppedNow += 1
            counts.dropped += 1
            return queued <= Self.behindLimit / 2 ? askOnce() : false
        }
        if queued > Self.behindLimit {
            behind = true
            keyFrameAsked = false
            droppedNow = 1
            counts.dropped += 1
            return false
        }
        push(sample, to: made?.picture)
        return false
    }

    /// True the first time since the last key frame asked: one request is enough.
    private func askOnce() -> Bool {
        defer { keyFrameAsked = true }
        return !keyFrameAsked
    }

    private func push(_ sample: Sample, to source: AppSource?) {
        guard let source, (try? source.push(sample, startingAt: origin)) != nil else { return }
        let bytes = Int64(sample.byteCount)
        counts.bytes += bytes
        window.bytes += bytes
        let elapsed = ContinuousClock.now - window.start
        if elapsed >= .seconds(1) {
            kilobitsPerSecond = Int(Double(window.bytes) * 8 / 1000 / elapsed.seconds)
            window = (.now, 0)
        }
    }

    // MARK: the stream's pipeline

    /// Makes the pipeline for a stream beginning at this key frame and starts it on the work queue.
    private func begin(at sample: Sample, caps: Caps) -> Bool {
        keyFrameAsked = false
        let planned = StreamPipelinePlan(stream, pictureCaps: caps, soundCaps: hasSound ? soundCaps : nil)
        let made: Made
        do {
            let pipeline = try PipelineAssembler.assemble(planned.plan, name: "stream-" + stream.name)
            guard let picture = pipeline[planned.picture] else { return false }
            made = Made(pipeline: pipeline, picture: picture, sound: planned.sound.flatMap { pipeline[$0] })
            let taken = Locked(0)
            // A viewer joining a listener decodes from the next key frame: asked for now, not in two seconds.
            if case .srtListener = stream.destination { pipeline[planned.sink]?.onCallerAdded { [requestKeyFrame] in requestKeyFrame() } }
            _ = try pipeline[planned.sink]?.staticPad(planned.sinkPad).addDataProbe { [weak self, weak made] in
                let count = taken.withValue { $0 += 1; return $0 }
                // The second push reaching the sink: it took the first, so the server did.
                if count == 2, let self, let made { self.connected(made) }
                return count >= 2 ? .remove : .pass
            }
        } catch {
            failed(made: nil, reason: "\(error)")
            return false
        }
        self.made = made
        origin = sample.runningTime ?? .zero
        phase = .connecting
        made.subscription = made.pipeline.bus.subscribe { [weak self, weak made] message in
            guard let self, let made, case .error(let text, let debug) = message.kind else { return }
            let detail = debug.flatMap(RunningGraph.detail(ofDebug:)).map { " (\($0))" } ?? ""
            self.lock.withLock { self.failed(made: made, reason: text + detail) }
        }
        work.async {
            do { _ = try made.pipeline.setState(.playing) } catch {
                self.lock.withLock { self.failed(made: made, reason: "\(error)") }
            }
        }
        return true
    }

    private func connected(_ made: Made) {
        let report: (@Sendable (StreamEvent) -> Void)? = lock.withLock {
            guard self.made === made, phase == .connecting else { return nil }
            phase = .live
            failures = 0
            everLive = true
            liveSince = .now
            return onEvent
        }
        report?(StreamEvent(stream: stream.name, kind: .connected))
    }

    /// The pipeline `made` failed (nil: it could not be made): it is stopped, and the stream is tried
    /// again after a wait. Called with the lock held; a failure of a pipeline already replaced is old news.
    private func failed(made failedOne: Made?, reason: String) {
        guard phase != .stopped, failedOne == nil || failedOne === made else { return }
        if let since = liveSince { counts.live += .now - since }
        liveSince = nil
        let old = made
        made = nil
        // Pictures left out before the failure are said too: the stream never resumed from them.
        let leftOut = behind ? droppedNow : 0
        behind = false
        droppedNow = 0
        phase = .retrying
        let wait = Self.retryWaits[min(failures, Self.retryWaits.count - 1)]
        failures += 1
        let shown = stream.hidingSecrets(in: reason)
        let (report, fatal) = (onEvent, stream.required && !everLive ? onStartFailure : nil)
        work.async {
            old?.subscription?.cancel()
            _ = try? old?.pipeline.setState(.null)
            if leftOut > 0 { report(StreamEvent(stream: self.stream.name, kind: .dropped(pictures: leftOut))) }
            if let fatal { fatal(.streamOutput(name: self.stream.name, .notStarted(reason: shown))) }
            report(StreamEvent(stream: self.stream.name, kind: .lost(reason: shown, retry: wait)))
        }
        work.asyncAfter(deadline: .now() + wait.seconds) { [weak self] in
            guard let self else { return }
            let retry: Bool = self.lock.withLock {
                guard self.phase == .retrying else { return false }
                self.phase = .waitingForKeyFrame
                self.counts.reconnects += 1
                return true
            }
            if retry { self.requestKeyFrame() }
        }
    }

    // MARK: by hand

    /// Starts a stream stopped by hand (at the next key frame, asked for now), or stops one: it ends
    /// as it would with the recording, which goes on. Returns whether it is on now.
    @discardableResult
    func turn(on: Bool) -> Bool {
        let (last, wasOff): (Made?, Bool) = lock.withLock {
            let wasOff = phase == .off
            guard on == wasOff, phase != .stopped else { return (nil, false) }
            if on {
                phase = .waitingForKeyFrame
                failures = 0
                keyFrameAsked = true
                return (nil, true)
            }
            if let since = liveSince { counts.live += .now - since }
            liveSince = nil
            phase = .off
            behind = false
            defer { made = nil }
            return (made, false)
        }
        if wasOff { requestKeyFrame() }
        if let last { Task { await Self.end(last, of: stream) } }
        return on
    }

    // MARK: the end

    /// Ends the stream with the recording.
    func finish() async {
        let last: Made? = lock.withLock {
            if let since = liveSince { counts.live += .now - since }
            liveSince = nil
            phase = .stopped
            defer { made = nil }
            return made
        }
        guard let last else { return }
        await Self.end(last, of: stream)
    }

    /// Sends what a pipeline holds (a few seconds at most), then stops it.
    private static func end(_ last: Made, of stream: StreamOutput) async {
        last.subscription?.cancel()
        let messages = last.pipeline.bus.messages()
        last.picture.endOfStream()
        last.sound?.endOfStream()
        _ = try? await messages.first(timeout: .seconds(3)) { message in
            if case .eos = message.kind { return true }
            return message.isError
        }
        // SRT drops what the viewer has not taken yet when its socket closes: the last pictures would
        // reach the viewer cut off. Its latency (the receiver's wait for resent packets) and a margin let
        // them arrive first.
        if let linger = stream.srtLatency.map({ $0 + .milliseconds(500) }) { try? await Task.sleep(for: linger) }
        _ = try? last.pipeline.setState(.null)
    }

    var status: StreamStatus {
        lock.withLock {
            let state: StreamStatus.State = switch phase {
            case .live: .live
            case .connecting, .waitingForKeyFrame: everLive || counts.reconnects > 0 ? .reconnecting : .connecting
            case .retrying: .reconnecting
            case .off, .stopped: .stopped
            }
            // Nothing handed on for a while (the stream is behind): nothing is going out.
            let rate = phase == .live && ContinuousClock.now - window.start < .seconds(3) ? kilobitsPerSecond : 0
            return StreamStatus(stream: stream.name, state: state, kilobitsPerSecond: rate)
        }
    }

    var summary: StreamSummary {
        lock.withLock {
            let live = counts.live + (liveSince.map { .now - $0 } ?? .zero)
            return StreamSummary(stream: stream.name, address: stream.shownAddress, timeLive: live, reconnects: counts.reconnects,
                                 bytesSent: counts.bytes, picturesDropped: counts.dropped)
        }
    }
}
