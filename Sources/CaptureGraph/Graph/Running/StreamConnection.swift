import CaptureModel
import Dispatch
import Foundation
import GStreamer
import LinuxIO

/// One stream while the recording runs: its pipeline made at a key frame, fed the recording's encoded
/// buffers, left behind by whole groups of pictures when the network falls behind, and made again after
/// a failure, with a growing wait (1, 2, 4 … 30 s). Buffers arrive on the recording's streaming threads
/// and are only handed on or dropped there: nothing here ever holds the recording back.
///
/// What it says is what the server has: live only once the sink's own figures show the server accepted
/// the stream (`StreamSinkWatch`), bytes only as the transport took them, each failure's cause said once
/// in a person's words (`StreamOutput.cause(of:)`) and again only when it changes.
final class StreamConnection: @unchecked Sendable {
    let stream: StreamOutput
    /// How far behind the stream may fall (pictures queued for the network) before whole groups of
    /// pictures are left out: a second or two of a stall is ridden out, a longer one costs the viewers
    /// the stall, never more.
    static let behindLimit: Duration = .seconds(2)
    static let retryWaits: [Duration] = [1, 2, 4, 8, 16, 30].map { .seconds($0) }

    /// `off`: stopped by hand while the recording goes on; `stopped`: ended with the recording.
    private enum Phase { case waitingForKeyFrame, connecting, live, retrying, off, stopped }

    /// How often the sink's figures are read: a connection is said within this of the server's answer.
    static let pollInterval: Duration = .milliseconds(100)
    /// How long pipcam's own check of a server's address may take after a failure.
    static let reachTimeout: Duration = .seconds(3)
    /// A connect still under way after this is looked at by pipcam's own check, so a server that does
    /// not answer is said within seconds, not after the sink's own timeout and a check after it.
    static let slowConnect: Duration = .seconds(2)

    private let lock = NSLock()
    /// Starts and stops pipelines: state changes of network sinks may block for a while.
    private let work: DispatchQueue
    private let hasSound: Bool
    private let requestKeyFrame: @Sendable () -> Void
    private var onEvent: @Sendable (StreamEvent) -> Void = { _ in }
    private var onStartFailure: @Sendable (CaptureError) -> Void = { _ in }
    private var phase = Phase.waitingForKeyFrame
    private var made: StreamAttempt?
    private var soundCaps: Caps?
    /// The running time of the key frame the current pipeline began with: its zero.
    private var origin: Duration = .zero
    private var behind = false, droppedNow = 0, keyFrameAsked = false
    private var failures = 0, everLive = false
    /// The cause said last (nil after a connection): a failure for the same cause is not said again.
    private var saidCause: String?
    private var liveSince: ContinuousClock.Instant?
    /// `bytes`: sent on connections already ended; `attempts`: pipelines started.
    private var counts = (live: Duration.zero, reconnects: 0, bytes: Int64(0), dropped: 0, attempts: 0)
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
                if dropped > 0 { work.async { self.onEventNow(StreamEvent(stream: self.stream.name, kind: .dropped(pictures: dropped))) } }
                push(sample, to: made?.picture)
                return false
            }
            leaveOut()
            return queued <= Self.behindLimit / 2 ? askOnce() : false
        }
        if queued > Self.behindLimit {
            behind = true
            keyFrameAsked = false
            leaveOut()
            return false
        }
        push(sample, to: made?.picture)
        return false
    }

    /// A picture left out: counted as the stream's loss only while the server has the stream. Before it
    /// does (a connect that takes seconds), there is no viewer to be behind for.
    private func leaveOut() {
        guard phase == .live else { return }
        droppedNow += 1
        counts.dropped += 1
    }

    /// True the first time since the last key frame asked: one request is enough.
    private func askOnce() -> Bool {
        defer { keyFrameAsked = true }
        return !keyFrameAsked
    }

    private func push(_ sample: Sample, to source: AppSource?) {
        guard let source, (try? source.push(sample, startingAt: origin)) != nil else { return }
        made?.pushed += Int64(sample.byteCount)
    }

    // MARK: the stream's pipeline

    /// Makes the pipeline for a stream beginning at this key frame and starts it on the work queue.
    private func begin(at sample: Sample, caps: Caps) -> Bool {
        keyFrameAsked = false
        let planned = StreamPipelinePlan(stream, pictureCaps: caps, soundCaps: hasSound ? soundCaps : nil)
        let made: StreamAttempt
        do {
            guard let attempt = try StreamAttempt(planned, of: stream, requestKeyFrame: requestKeyFrame) else { return false }
            made = attempt
        } catch {
            failed(made: nil, reason: "\(error)")
            return false
        }
        self.made = made
        origin = sample.runningTime ?? .zero
        phase = .connecting
        counts.attempts += 1
        made.subscription = made.pipeline.bus.subscribe { [weak self, weak made] message in
            guard let self, let made, case .error(let text, let debug) = message.kind else { return }
            let notAuthorized = message.errorCode == .notAuthorized
            self.lock.withLock { self.failed(made: made, reason: RunningGraph.reason(text, debug: debug), notAuthorized: notAuthorized) }
        }
        work.async {
            do { _ = try made.pipeline.setState(.playing) } catch {
                self.lock.withLock { self.failed(made: made, reason: "\(error)") }
            }
        }
        let poll = DispatchSource.makeTimerSource(queue: work)
        poll.schedule(deadline: .now(), repeating: Self.pollInterval.seconds)
        poll.setEventHandler { [weak self, weak made] in
            guard let self, let made else { return }
            self.check(made)
        }
        made.poll = poll
        poll.resume()
        return true
    }

    /// Reads the sink's figures (on the work queue): the server's acceptance, the bytes sent, and a
    /// connection that went without an error (SRT's, which its sink tries again by itself).
    private func check(_ checked: StreamAttempt) {
        let now = checked.watch.read(pushed: lock.withLock { checked.pushed })
        let report: StreamEvent? = lock.withLock {
            guard made === checked else { return nil }
            window.bytes += max(0, now.bytes - checked.sent)
            checked.sent = max(checked.sent, now.bytes)
            let elapsed = ContinuousClock.now - window.start
            if elapsed >= .seconds(1) {
                kilobitsPerSecond = Int(Double(window.bytes) * 8 / 1000 / elapsed.seconds)
                window = (.now, 0)
            }
            switch (phase, now.connected) {
            case (.connecting, true):
                if everLive { counts.reconnects += 1 }
                phase = .live
                checked.wasLive = true
                failures = 0
                everLive = true
                saidCause = nil
                liveSince = .now
                window = (.now, 0)
                return StreamEvent(stream: stream.name, kind: .connected)
            case (.live, false):
                failed(made: checked, reason: "the connection went")
                return nil
            case (.connecting, false) where !checked.reachChecked && ContinuousClock.now - checked.started > Self.slowConnect:
                checked.reachChecked = true
                checkReachEarly()
                return nil
            default:
                return nil
            }
        }
        if let report { onEventNow(report) }
    }

    /// A connect that takes long: pipcam's own check of the address says why, while the sink still
    /// tries (RTMP's; SRT's sink gives up within seconds by itself).
    private func checkReachEarly() {
        guard let endpoint = stream.tcpEndpoint else { return }
        DispatchQueue.global().async {
            guard let cause = endpoint.cause(of: TCPReach.check(endpoint, within: Self.slowConnect)) else { return }
            self.say(cause, wasLive: false, retry: .zero, fatal: nil)
        }
    }

    /// Hands `event` on, unless the stream has ended (a check or a failure that finished after it).
    private func onEventNow(_ event: StreamEvent) {
        let report = lock.withLock { phase == .stopped ? nil : onEvent }
        report?(event)
    }

    /// The pipeline `made` failed (nil: it could not be made): it is stopped, its cause found and said
    /// when it is news, and the stream is tried again after a wait. Called with the lock held; a failure
    /// of a pipeline already replaced is old news.
    private func failed(made failedOne: StreamAttempt?, reason: String, notAuthorized: Bool = false) {
        guard phase != .stopped, failedOne == nil || failedOne === made else { return }
        if let since = liveSince { counts.live += .now - since }
        liveSince = nil
        let old = made
        made = nil
        old?.poll?.cancel()
        counts.bytes += old?.sent ?? 0
        // Pictures left out before the failure are said too: the stream never resumed from them.
        let leftOut = behind ? droppedNow : 0
        behind = false
        droppedNow = 0
        phase = .retrying
        let wait = Self.retryWaits[min(failures, Self.retryWaits.count - 1)]
        failures += 1
        let failure = StreamFailure(wasLive: old?.wasLive ?? false, answeredQuickly: old.map { .now - $0.started < StreamFailure.quickAnswer } ?? false,
                                    reach: nil, notAuthorized: notAuthorized, fallback: stream.hidingSecrets(in: reason))
        let fatal = stream.required && !everLive ? onStartFailure : nil
        work.async {
            old?.subscription?.cancel()
            _ = try? old?.pipeline.setState(.null)
            if leftOut > 0 { self.onEventNow(StreamEvent(stream: self.stream.name, kind: .dropped(pictures: leftOut))) }
            // A pipeline that could not be made has GStreamer's own reason; a network failure is looked at
            // by pipcam itself, off the work queue: it may take seconds.
            guard old != nil else { return self.say(failure.fallback, wasLive: false, retry: wait, fatal: fatal) }
            DispatchQueue.global().async {
                var checked = failure
                if let endpoint = self.stream.tcpEndpoint, !notAuthorized {
                    checked.reach = TCPReach.check(endpoint, within: Self.reachTimeout)
                }
                self.say(self.stream.cause(of: checked), wasLive: checked.wasLive, retry: wait, fatal: fatal)
            }
        }
        work.asyncAfter(deadline: .now() + wait.seconds) { [weak self] in
            guard let self else { return }
            let retry: Bool = self.lock.withLock {
                guard self.phase == .retrying else { return false }
                self.phase = .waitingForKeyFrame
                return true
            }
            if retry { self.requestKeyFrame() }
        }
    }

    /// Says a failure's cause when it is news: the first failure, a failure after the stream was live,
    /// or a cause other than the one said last. A required stream's failure to start ends the recording
    /// whether or not its cause was said before (by the early look). Nothing is said once the stream ended.
    private func say(_ cause: String, wasLive: Bool, retry: Duration, fatal: (@Sendable (CaptureError) -> Void)?) {
        let report: (@Sendable (StreamEvent) -> Void)? = lock.withLock {
            guard phase != .stopped, phase != .off else { return nil }
            guard wasLive || phase != .live && cause != saidCause else { return { _ in } }
            saidCause = cause
            return onEvent
        }
        guard let report else { return }
        fatal?(.streamOutput(name: stream.name, .notStarted(reason: cause)))
        report(StreamEvent(stream: stream.name, kind: wasLive ? .lost(reason: cause, retry: retry) : .failing(reason: cause)))
    }

    // MARK: by hand

    /// Starts a stream stopped by hand (at the next key frame, asked for now), or stops one: it ends
    /// as it would with the recording, which goes on. Returns whether it is on now.
    @discardableResult
    func turn(on: Bool) -> Bool {
        let (last, wasOff): (StreamAttempt?, Bool) = lock.withLock {
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
            saidCause = nil
            counts.bytes += made?.sent ?? 0
            made?.poll?.cancel()
            defer { made = nil }
            return (made, false)
        }
        if wasOff { requestKeyFrame() }
        if let last { Task { await last.end(of: stream) } }
        return on
    }

    // MARK: the end

    /// Ends the stream with the recording.
    func finish() async {
        let last: StreamAttempt? = lock.withLock {
            if let since = liveSince { counts.live += .now - since }
            liveSince = nil
            phase = .stopped
            made?.poll?.cancel()
            counts.bytes += made?.sent ?? 0
            defer { made = nil }
            return made
        }
        guard let last else { return }
        await last.end(of: stream)
        // What went out while the pipeline emptied counts too.
        let sent = last.watch.read(pushed: last.pushed).bytes
        lock.withLock { counts.bytes += max(0, sent - last.sent) }
    }

    var status: StreamStatus {
        lock.withLock {
            let state: StreamStatus.State = switch phase {
            case .live: .live
            case .connecting, .waitingForKeyFrame, .retrying: everLive ? .reconnecting : .connecting
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
            var summary = StreamSummary(stream: stream.name, address: stream.shownAddress, timeLive: live, reconnects: counts.reconnects,
                                        bytesSent: counts.bytes + (made?.sent ?? 0), picturesDropped: counts.dropped)
            summary.everConnected = everLive || phase == .off && counts.attempts == 0
            summary.attempts = counts.attempts
            summary.lastFailure = saidCause
            return summary
        }
    }
}
