import CaptureModel
import Foundation
import GStreamer

/// Running a session: start, stop, applying commits to a running graph, and what happens on failure.
/// Every operation here that changes which graph runs goes through `operations`, one at a time.
extension CaptureSession {
    /// Builds the graph and starts capturing (`startRunning`).
    public func startRunning() async throws {
        try await operations.run {
            guard self.locked({ self.graph == nil }) else { return }
            let configuration = self.configuration
            self.locked {
                self.moviePathBase = configuration.movieFile?.path
                self.segment = 1
            }
            let plan = try configuration.graphPlan()
            do {
                let screens = try await self.shareScreens(for: configuration)
                try await self.start(try RunningGraph(plan: plan, configuration: configuration, screens: screens), configuration)
            } catch {
                // Nothing records: the desktop stops showing the screen as shared.
                self.endScreenShares()
                throw error
            }
        }
    }

    /// Stops capturing: drains the graph with end-of-stream so the file is complete, then tears it down
    /// (`stopRunning`). The summary says whether the file was finalized.
    @discardableResult
    public func stopRunning() async throws -> RecordingSummary {
        // A start still waiting for the user to pick a screen gives up, so this stop does not wait for it.
        screenShareCancelled.withValue { $0 = true }
        return try await operations.run {
            defer { self.endScreenShares() }
            return await self.stop(segmentOnly: false)
        }
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
        let previous = configuration
        var next = nextSegment(of: candidate, after: previous)
        // A new graph starts as configured; its own sampler steps down again if it must.
        next.throttle = nil
        // Built and linked, but not started: the old graph still holds the devices.
        let prepared = try RunningGraph(plan: try next.graphPlan(), configuration: next, screens: try await shareScreens(for: next))
        _ = await stop(segmentOnly: true)
        do {
            try await start(prepared, next)
        } catch {
            // Go back to what ran before, into a file of its own, so the recording goes on.
            let restored = nextSegment(of: previous, after: next)
            try? await start(try RunningGraph(plan: try restored.graphPlan(), configuration: restored, screens: locked { screens }), restored)
            throw CaptureError.commitFailed(cause: error)
        }
    }

    /// The candidate, recording into the next free "name-N.mkv" when it would write to the same file.
    private func nextSegment(of candidate: SessionConfiguration, after previous: SessionConfiguration) -> SessionConfiguration {
        var next = candidate
        guard let path = candidate.movieFile?.path else { return next }
        locked {
            guard path == previous.movieFile?.path, let base = moviePathBase else {
                moviePathBase = path
                segment = 1
                return
            }
            var numbered: String
            repeat {
                segment += 1
                numbered = Self.segmentPath(base, segment)
            } while FileManager.default.fileExists(atPath: numbered)
            next.movieFile?.path = numbered
        }
        return next
    }

    /// "talk.mkv" → "talk-2.mkv".
    static func segmentPath(_ path: String, _ number: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(base)-\(number).\(url.pathExtension)").path
    }

    private func start(_ running: RunningGraph, _ configuration: SessionConfiguration) async throws {
        try running.watchFile(limit: recordingLimit) { [weak self] in
            Task { [weak self] in _ = try? await self?.stopRunning() }
        }
        let subscription = running.pipeline.bus.subscribe { [weak self] message in
            self?.handle(message, from: running, configuration: configuration)
        }
        running.attach(subscription: subscription, cameraWatch: watchCameras(configuration))
        locked {
            graph = running
            stopTask = nil
            committed = configuration
        }
        do {
            try await running.pipeline.reachState(.playing, timeout: .seconds(15))
        } catch {
            // The error that made the start fail may still be on its way from a streaming thread: give it
            // a moment to arrive before letting go of the bus.
            await running.pipeline.bus.flush()
            if running.firstError.value == nil {
                _ = try? await running.pipeline.bus.messages().first(timeout: .seconds(1)) { $0.isError }
                await running.pipeline.bus.flush()
            }
            running.detach()
            locked { if graph === running { graph = nil } }
            _ = try? running.pipeline.setState(.null)
            // The pipeline's own error says more than "state change failed".
            guard case .streamFailed(let input, let element, let reason)? = running.firstError.value else {
                throw CaptureError.startFailed(input: nil, cause: "\(error)")
            }
            throw CaptureError.startFailed(input: input ?? element ?? "pipeline", cause: reason)
        }
        running.started.withValue { $0 = true }
        // A fast replay takes every core on purpose and waits instead of dropping: nothing to throttle.
        var policy = configuration.throttlePolicy
        if configuration.replay == .fast { policy.isEnabled = false }
        running.attach(pressureWatch: watchPressure(of: running, policy: policy))
        eventContinuation.yield(.started)
        if running.firstError.value != nil { finishAfterFailure(running) }
    }

    /// How long the queued pictures and sound may take to drain into the file when stopping. A machine that
    /// could not encode in real time has up to a second of pictures queued, each slow to encode; an index
    /// written late is worth far more than a file without one.
    static let finishTimeout: Duration = .seconds(30)

    private func finish(_ running: RunningGraph, segmentOnly: Bool, drained: Bool = false) async -> RecordingSummary {
        let configuration = self.configuration
        var problem: String?
        do {
            if drained {
                // The pipeline posted end-of-stream itself: the file is complete and no second one will come.
                _ = try running.pipeline.setState(.null)
            } else {
                // End-of-stream goes in just downstream of every source rather than to the sources: a failed
                // source cannot send it, and a live capture source blocked in a read may not for a while.
                try await running.pipeline.finish(timeout: Self.finishTimeout) { running.endAllSourcesFromDownstream() }
            }
        } catch {
            problem = "\(error)"
        }
        running.detach()
        let summary = running.summary(path: configuration.movieFile?.path, problem: problem)
        locked {
            if graph === running { graph = nil }
            stopTask = nil
        }
        if !segmentOnly { configuration.finishDataOutputs() }
        eventContinuation.yield(segmentOnly ? .segmentFinished(summary) : .stopped(summary))
        return summary
    }

    /// Live numbers for a status line: elapsed time, frames per camera, dropped, file size.
    public func liveStatus() -> LiveStatus? {
        guard let running = locked({ graph }) else { return nil }
        let size = configuration.movieFile.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64 }
        return LiveStatus(elapsed: running.pipeline.runningTime ?? .zero,
                          frames: running.cameraFrames.map { ($0.inputID, $0.frames) },
                          dropped: running.cameraFrames.reduce(running.droppedPictures) { $0 + $1.dropped },
                          fileSize: size)
    }

    // MARK: failures and devices

    private func handle(_ message: Message, from running: RunningGraph, configuration: SessionConfiguration) {
        switch message.kind {
        case .error where message.errorCode == .resourceNotFound && message.sourceName != nil && message.sourceName == running.plan.previewSink?.name:
            // Closing the window is how a preview is usually ended; the sink reports it as an error.
            eventContinuation.yield(.previewClosed)
            if running.started.value { finishAfterFailure(running) }
        case .error(let text, let debug):
            let deviceID = message.sourceName.flatMap { running.plan.inputOfElement[$0] }
            var reason = text + (debug.flatMap(Self.detail).map { " (\($0))" } ?? "")
            // A camera another program streams from fails as "busy": say which program.
            if case .v4l2(let node)? = deviceID.flatMap(configuration.input)?.device.source { reason += CameraAccess.heldBy(node) }
            let failure = CaptureError.streamFailed(input: deviceID, element: message.sourceName, reason: reason)
            running.firstError.withValue { $0 = $0 ?? failure }
            eventContinuation.yield(.runtimeError(failure))
            // Before PLAYING, a failure is the start's to handle: it throws, or finishes once playing.
            if running.started.value { finishAfterFailure(running) }
        case .eos where message.sourcePath?.split(separator: "/").count == 1:
            // Every branch ended by itself (clips played out): the recording is over and already drained.
            if running.started.value { finishAfterFailure(running, drained: true) }
        default:
            break
        }
    }

    /// What an error's debug text adds for a user. GStreamer starts it with the line of its own source
    /// that raised it ("../sys/v4l2/gstv4l2object.c(4103): gst_v4l2_object_set_format_full (): /GstPipeline:…");
    /// what went wrong ("Call to S_FMT failed for YUYV @ 640x360: Device or resource busy") follows.
    static func detail(ofDebug debug: String) -> String? {
        var lines = debug.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let first = lines.first, first.contains(".c("), first.contains("):") { lines.removeFirst() }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }

    /// Keeps what was recorded after a failure: ends the other branches cleanly so the file is finalized.
    private func finishAfterFailure(_ running: RunningGraph, drained: Bool = false) {
        locked {
            guard graph === running, stopTask == nil else { return }
            stopTask = Task { await self.finish(running, segmentOnly: false, drained: drained) }
        }
    }

    /// Reports cameras in use going away and coming back.
    private func watchCameras(_ configuration: SessionConfiguration) -> CameraWatch? {
        let watched: [String: String] = Dictionary(uniqueKeysWithValues: configuration.inputs.compactMap { input in
            input.device.isCamera ? input.device.node.map { ($0, input.id) } : nil
        })
        guard !watched.isEmpty else { return nil }
        return CameraWatch { [weak self] change in
            guard let node = change.camera.node, let id = watched[node] else { return }
            switch change {
            case .left: self?.eventContinuation.yield(.interrupted(deviceID: id))
            case .arrived: self?.eventContinuation.yield(.interruptionEnded(deviceID: id))
            }
        }
    }
}
