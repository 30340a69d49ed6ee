import CaptureGraph
import CaptureModel
import Foundation
import Locking

/// Running a session: start, stop, applying commits to a running graph, and what happens on failure.
/// Every operation here that changes which graph runs goes through `operations`, one at a time.
extension CaptureSession {
    /// Builds the graph and starts capturing (`startRunning`).
    public func startRunning() async throws {
        try await operations.run {
            guard self.locked({ self.graph == nil }) else { return }
            let configuration = self.configuration
            if let movie = configuration.recordedFile {
                self.uploads.repairUnfinished(besides: movie.path) { self.eventContinuation.yield($0) }
            }
            self.segmentNames.begin(at: configuration.movieFile?.path)
            await HardwareEncoders.prepare(for: configuration)
            let plan = try configuration.graphPlan()
            try await Blocking.run { try StartChecks.check(configuration) }
            do {
                try await self.screens.share(for: configuration)
                try await self.start(try RunningGraph(plan: plan, configuration: configuration, screens: self.screens), configuration)
            } catch {
                // Nothing records: the desktop stops showing the screen as shared.
                self.screens.endAll()
                throw error
            }
        }
    }

    /// Stops capturing: drains the graph with end-of-stream so the file is complete, then tears it down
    /// (`stopRunning`). The summary says whether the file was finalized.
    @discardableResult
    public func stopRunning() async throws -> RecordingSummary {
        // A start still waiting for the user to pick a screen gives up, so this stop does not wait for it.
        screens.cancelAsking()
        return try await operations.run {
            defer { self.screens.endAll() }
            return await self.stop(segmentOnly: false)
        }
    }

    /// Stops at once: what is still queued for the file (up to about a second on a machine that cannot
    /// encode in real time) is let go, and the file is ended with what reached it. A stop under way
    /// stops waiting.
    public func stopRunningAtOnce() async throws {
        locked { graph }?.cutShort()
        try await stopRunning()
    }

    /// Stops the running graph, or waits for a stop already under way.
    func stop(segmentOnly: Bool) async -> RecordingSummary {
        let task: Task<RecordingSummary, Never>? = locked {
            guard let running = graph else { return nil }
            if let stopTask { return stopTask }
            let task = Task { await self.finish(running, segmentOnly: segmentOnly) }
            stopTask = task
            return task
        }
        guard let task else { return RecordingSummary(path: nil, duration: .zero, cameras: [], droppedPictures: 0, fileSize: nil) }
        return await task.value
    }

    /// Applies a validated configuration: live settings in place; a structural change by building the new
    /// graph completely before stopping the old one, and the recording goes on in a new file.
    func apply(_ candidate: SessionConfiguration) async throws {
        let plan = try candidate.graphPlan()
        guard let running = locked({ graph }) else {
            setCommitted(candidate)
            return
        }
        if plan.structureKey == running.plan.structureKey {
            try running.apply(plan)
            setCommitted(candidate)
            return
        }
        // A new graph starts a new file, unpaused: a paused recording takes the change once it is resumed.
        if candidate.movieFile != nil, running.chapters.isPaused(at: running.elapsed) { throw CaptureError.invalidConfiguration("the recording is paused: resume it first") }
        let previous = configuration
        var next = nextSegment(of: candidate, after: previous)
        // A new graph starts as configured; its own sampler steps down again if it must.
        next.throttle = nil
        // Built and linked, but not started: the old graph still holds the devices.
        try await screens.share(for: next)
        let prepared = try RunningGraph(plan: try next.graphPlan(), configuration: next, screens: screens)
        _ = await stop(segmentOnly: true)
        do {
            try await start(prepared, next)
        } catch {
            // Go back to what ran before, into a file of its own, so the recording goes on.
            let restored = nextSegment(of: previous, after: next)
            try? await start(try RunningGraph(plan: try restored.graphPlan(), configuration: restored, screens: screens), restored)
            throw CaptureError.commitFailed(cause: error)
        }
    }

    /// The candidate, recording into the next free "name-N.mkv" when it would write to the same file.
    private func nextSegment(of candidate: SessionConfiguration, after previous: SessionConfiguration) -> SessionConfiguration {
        var next = candidate
        if let path = segmentNames.path(for: candidate.movieFile?.path, after: previous.movieFile?.path) { next.movieFile?.path = path }
        return next
    }

    private func start(_ running: RunningGraph, _ configuration: SessionConfiguration) async throws {
        try running.watchFile(limit: recordingLimit) { [weak self] in
            Task { [weak self] in _ = try? await self?.stopRunning() }
        }
        let controls = CameraControlKeeper(configuration: configuration, elapsed: { running.elapsed }) { [weak self] event in
            self?.eventContinuation.yield(event)
        }
        running.cameraReopened.withValue { $0 = { controls.remake(of: $0, node: $1) } }
        locked {
            graph = running
            cameraControls = controls
            stopTask = nil
            committed = configuration
        }
        do {
            let cameras = SessionWatches.cameras(of: configuration, running: running) { [weak self] event in self?.eventContinuation.yield(event) }
            try await running.start(cameraWatch: cameras, beforePlaying: controls.makeStartingControls) { [weak self] event in
                self?.handle(event, from: running)
            }
        } catch {
            release(running)
            throw error
        }
        controls.startMatching()
        SessionWatches.start(on: running, configuration: configuration, limit: recordingLimit, of: self)
        eventContinuation.yield(.started)
        if running.firstError.value != nil { finishAfterFailure(running) }
    }

    /// Lets go of `running` and its cameras' control keeper, while it is still the session's graph.
    private func release(_ running: RunningGraph) {
        locked {
            guard graph === running else { return }
            graph = nil
            cameraControls?.stop()
            cameraControls = nil
        }
    }

    /// How long the queued pictures and sound may take to drain into the file when stopping. A machine that
    /// could not encode in real time has up to a second of pictures queued, each slow to encode; an index
    /// written late is worth far more than a file without one.
    static let finishTimeout: Duration = .seconds(30)

    private func finish(_ running: RunningGraph, segmentOnly: Bool, drained: Bool = false) async -> RecordingSummary {
        let configuration = self.configuration
        var problem: String?
        do {
            try await running.finish(timeout: Self.finishTimeout, drained: drained)
        } catch {
            problem = "\(error)"
        }
        var summary = running.summary(problem: problem)
        summary.uploads = uploads.status
        release(running)
        locked { stopTask = nil }
        if !segmentOnly { configuration.finishDataOutputs() }
        eventContinuation.yield(segmentOnly ? .segmentFinished(summary) : .stopped(summary))
        return summary
    }

    /// Whether `candidate` would run in the graph running now, only its live settings changed: no rebuild,
    /// and a recording goes on in the same file. True when nothing runs.
    public func changesOnlyLiveSettings(to candidate: SessionConfiguration) -> Bool {
        guard let running = locked({ graph }) else { return true }
        return (try? candidate.graphPlan().structureKey) == running.plan.structureKey
    }

    /// Live numbers for a status line: elapsed time, frames per camera, dropped, file size.
    public func liveStatus() -> LiveStatus? { locked { graph }?.liveStatus() }

    /// Starts or stops a stream while recording (`enabled` nil: the other way round), the file going
    /// on untouched; returns whether the stream is on now.
    public func setStreamEnabled(_ enabled: Bool?, stream name: String) throws -> Bool {
        guard let graph = locked({ graph }) else { throw CaptureError.streamOutput(name: name, .malformed("the session is not running")) }
        return try graph.turnStream(name, on: enabled)
    }

    // MARK: failures and devices

    /// What a graph's event means for the session: every failure and a closed window are reported, and
    /// once the graph plays, each ends the recording with what was recorded kept (before that, a failure
    /// is the start's to throw).
    private func handle(_ event: GraphEvent, from running: RunningGraph) {
        if let reported = event.sessionEvent { eventContinuation.yield(reported) }
        guard event.endsRecording, running.started.value else { return }
        if case .drained = event { finishAfterFailure(running, drained: true) } else { finishAfterFailure(running) }
    }

    /// Keeps what was recorded after a failure: ends the other branches cleanly so the file is finalized.
    private func finishAfterFailure(_ running: RunningGraph, drained: Bool = false) {
        locked {
            guard graph === running, stopTask == nil else { return }
            stopTask = Task { await self.finish(running, segmentOnly: false, drained: drained) }
        }
    }
}
