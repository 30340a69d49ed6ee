import Foundation
import GStreamer

/// The multi-camera capture session (`AVCaptureMultiCamSession`): inputs and outputs are added without
/// connections, connections are explicit, and changes are batched between `beginConfiguration()` and
/// `commitConfiguration()`. A commit validates the whole new graph before touching the running one, so a
/// failed commit leaves the session as it was, still recording.
///
/// All cameras, microphones and the writer live in one GStreamer pipeline and so share one clock.
public final class CaptureSession: @unchecked Sendable {
    public enum State: Sendable, Equatable { case idle, running, stopping }

    private let lock = NSLock()
    private var committed = SessionConfiguration()
    private var pending: SessionConfiguration?
    private var depth = 0
    private var graph: RunningGraph?
    private var busSubscription: BusSubscription?
    private var monitorSubscription: BusSubscription?
    private var monitor: DeviceMonitor?
    private var stopTask: Task<RecordingSummary, any Error>?
    private var segment = 1
    private let eventContinuation: AsyncStream<SessionEvent>.Continuation

    /// Every event the session reports, in order.
    public let events: AsyncStream<SessionEvent>

    /// Stop by itself once this much has been recorded (the file is cut at exactly this time).
    public var recordingLimit: Duration?

    public init() {
        (events, eventContinuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .unbounded)
    }

    public convenience init(configuration: SessionConfiguration) throws {
        self.init()
        try configuration.validate()
        committed = configuration
    }

    deinit { eventContinuation.finish() }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    public var state: State {
        locked { graph == nil ? .idle : (stopTask == nil ? .running : .stopping) }
    }

    /// The configuration that is running (or will run on start).
    public var configuration: SessionConfiguration { locked { committed } }

    /// The plan of the running graph, for status and tests.
    public var runningPlan: GraphPlan? { locked { graph?.plan } }

    // MARK: configuration

    /// Starts a batch of changes; batches nest and only the outermost commit applies them.
    public func beginConfiguration() {
        locked {
            if depth == 0 { pending = committed }
            depth += 1
        }
    }

    /// Ends a batch. The outermost commit validates the whole configuration and applies it atomically:
    /// live settings in place, structural changes by building the new graph before stopping the old.
    /// On failure the pending changes are dropped and the running configuration is untouched.
    public func commitConfiguration() async throws {
        let candidate: SessionConfiguration? = locked {
            guard depth > 0 else { return nil }
            depth -= 1
            guard depth == 0 else { return nil }
            defer { pending = nil }
            return pending
        }
        guard let candidate else { return }
        try await apply(candidate)
    }

    /// Runs `change` on the pending configuration; outside a batch it is its own batch.
    private func edit(_ change: (inout SessionConfiguration) throws -> Void) async throws {
        let ownBatch = locked { depth == 0 }
        if ownBatch { beginConfiguration() }
        do {
            try locked {
                var copy = pending!
                try change(&copy)
                pending = copy
            }
        } catch {
            if ownBatch { locked { depth = 0; pending = nil } }
            throw error
        }
        if ownBatch { try await commitConfiguration() }
    }

    /// The configuration being edited (inside a batch) or the committed one.
    private var current: SessionConfiguration { locked { pending ?? committed } }

    public func canAddInput(_ input: DeviceInput) -> Bool { current.reasonCannotAdd(input) == nil }
    public func reasonCannotAddInput(_ input: DeviceInput) -> String? { current.reasonCannotAdd(input) }
    public func canAddConnection(_ connection: Connection) -> Bool { current.reasonCannotAdd(connection) == nil }
    public func reasonCannotAddConnection(_ connection: Connection) -> String? { current.reasonCannotAdd(connection) }

    public func addInputWithNoConnections(_ input: DeviceInput) async throws {
        try await edit { configuration in
            if let reason = configuration.reasonCannotAdd(input) { throw ConfigurationError(reason) }
            configuration.inputs.append(input)
        }
    }

    /// Removes an input and every connection from it.
    public func removeInput(id: String) async throws {
        try await edit { configuration in
            configuration.inputs.removeAll { $0.id == id }
            configuration.connections.removeAll { $0.inputPorts.contains { $0.inputID == id } }
            if configuration.layout.mainInputID == id { configuration.layout.mainInputID = nil }
        }
    }

    public func addOutputWithNoConnections(_ output: MovieFileOutput) async throws {
        try await edit { configuration in
            if let reason = configuration.reasonCannotAddOutput(id: output.id, isMovieFile: true) { throw ConfigurationError(reason) }
            configuration.movieFile = output
        }
    }

    public func addOutputWithNoConnections(_ output: VideoDataOutput) async throws {
        try await edit { configuration in
            if let reason = configuration.reasonCannotAddOutput(id: output.id, isMovieFile: false) { throw ConfigurationError(reason) }
            configuration.videoDataOutputs.append(output)
        }
    }

    public func addOutputWithNoConnections(_ output: AudioDataOutput) async throws {
        try await edit { configuration in
            if let reason = configuration.reasonCannotAddOutput(id: output.id, isMovieFile: false) { throw ConfigurationError(reason) }
            configuration.audioDataOutputs.append(output)
        }
    }

    /// Removes an output and every connection to it.
    public func removeOutput(id: String) async throws {
        try await edit { configuration in
            if configuration.movieFile?.id == id { configuration.movieFile = nil }
            configuration.videoDataOutputs.removeAll { $0.id == id }
            configuration.audioDataOutputs.removeAll { $0.id == id }
            configuration.connections.removeAll { $0.outputID == id }
        }
    }

    public func addConnection(_ connection: Connection) async throws {
        try await edit { configuration in
            if let reason = configuration.reasonCannotAdd(connection) { throw ConfigurationError(reason) }
            configuration.connections.append(connection)
        }
    }

    /// Changes a connection in place (rotation, mirroring, enabled).
    public func updateConnection(id: String, _ change: @Sendable (inout Connection) -> Void) async throws {
        try await edit { configuration in
            guard let index = configuration.connections.firstIndex(where: { $0.id == id }) else {
                throw ConfigurationError("no connection '\(id)' in the session")
            }
            change(&configuration.connections[index])
        }
    }

    /// Replaces any part of the configuration (preset, layout, active formats…) in one step.
    public func update(_ change: @Sendable (inout SessionConfiguration) -> Void) async throws {
        try await edit { change(&$0) }
    }

    /// Exchanges the main and inset cameras while running (the double tap of AVMultiCamPiP); with audio
    /// following the main camera, the heard microphone switches too.
    public func swapCameras() async throws {
        try await edit { configuration in
            guard let composed = configuration.composedCameras(), let second = composed.second else {
                throw ConfigurationError("swapping needs two cameras connected to the movie file")
            }
            configuration.layout.mainInputID = second.inputPorts[0].inputID
        }
    }

    private func apply(_ candidate: SessionConfiguration) async throws {
        let plan = try GraphBuilder.plan(for: candidate)
        guard let running = locked({ graph }) else {
            locked { committed = candidate }
            return
        }
        if plan.structureKey == running.plan.structureKey {
            try running.apply(plan)
            locked { committed = candidate }
            return
        }
        // A structural change: build and check the new graph completely before stopping the old one.
        var next = candidate
        if let movie = next.movieFile, movie.path == committed.movieFile?.path {
            segment += 1
            next.movieFile?.path = Self.segmentPath(movie.path, segment)
        }
        let nextPlan = try GraphBuilder.plan(for: next)
        let prepared = try RunningGraph(plan: nextPlan, configuration: next)
        do {
            try prepared.pipeline.setState(.ready)
        } catch {
            _ = try? prepared.pipeline.setState(.null)
            throw ConfigurationError("the new configuration cannot start: \(error)")
        }
        _ = try await stopRunning()
        locked { committed = next }
        try await start(prepared)
    }

    /// "talk.mkv" → "talk-2.mkv": a structural change while recording continues in a new file.
    static func segmentPath(_ path: String, _ number: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(base)-\(number).\(url.pathExtension)").path
    }

    // MARK: running

    /// Builds the graph and starts capturing (`startRunning`).
    public func startRunning() async throws {
        let configuration = locked { committed }
        guard locked({ graph == nil }) else { return }
        let plan = try GraphBuilder.plan(for: configuration)
        try await start(try RunningGraph(plan: plan, configuration: configuration))
    }

    private func start(_ running: RunningGraph) async throws {
        let configuration = locked { committed }
        if let limit = recordingLimit {
            try running.limitRecording(to: limit) { [weak self] in
                Task { [weak self] in _ = try? await self?.stopRunning() }
            }
        } else {
            try running.countWrittenPictures()
        }
        busSubscription = running.pipeline.bus.subscribe { [weak self] message in
            self?.handle(message, from: running, configuration: configuration)
        }
        locked { graph = running; stopTask = nil }
        watchDevices(configuration)
        do {
            try await running.pipeline.reachState(.playing, timeout: .seconds(15))
        } catch {
            locked { graph = nil }
            busSubscription = nil
            monitor?.stop()
            _ = try? running.pipeline.setState(.null)
            // The pipeline's own error says more than "state change failed".
            throw ConfigurationError("could not start: \(running.firstError.value ?? "\(error)")")
        }
        running.started.set()
        eventContinuation.yield(.started)
        if running.firstError.value != nil { finishAfterFailure(running) }
    }

    /// Stops capturing: drains the graph with end-of-stream so the file is complete, then tears it down
    /// (`stopRunning`). Calling it again while stopping waits for the same stop.
    @discardableResult
    public func stopRunning() async throws -> RecordingSummary {
        let task: Task<RecordingSummary, any Error>? = locked {
            guard let running = graph else { return nil }
            if let stopTask { return stopTask }
            let task = Task { try await self.finish(running) }
            stopTask = task
            return task
        }
        guard let task else {
            return RecordingSummary(path: nil, duration: .zero, cameras: [], droppedPictures: 0, fileSize: nil)
        }
        return try await task.value
    }

    private func finish(_ running: RunningGraph, afterFailure: Bool = false) async throws -> RecordingSummary {
        let configuration = locked { committed }
        var failure: (any Error)?
        do {
            // End-of-stream goes in just downstream of every source rather than to the sources: a failed
            // source cannot send it, and a live capture source blocked in a read may not for a while.
            try await running.pipeline.finish(timeout: .seconds(10), toleratingErrors: afterFailure) { running.endAllSourcesFromDownstream() }
        } catch {
            failure = error
            _ = try? running.pipeline.setState(.null)
        }
        let summary = summarize(running, configuration: configuration)
        locked {
            graph = nil
            stopTask = nil
        }
        busSubscription = nil
        monitorSubscription = nil
        monitor?.stop()
        monitor = nil
        eventContinuation.yield(.stopped(summary))
        if let failure, !afterFailure { throw failure }
        return summary
    }

    private func summarize(_ running: RunningGraph, configuration: SessionConfiguration) -> RecordingSummary {
        let cameras = running.plan.cameraTaps.map { tap -> RecordingSummary.Camera in
            let frames = running.captured[tap.inputID]?.value ?? 0
            let delivered = running.delivered[tap.inputID]?.value ?? frames
            return .init(inputID: tap.inputID, mode: running.plan.cameraModes[tap.inputID]?.description ?? "",
                         frames: frames, dropped: max(0, frames - delivered))
        }
        let path = configuration.movieFile?.path
        let size = path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int64 }
        let frameTime = Duration.seconds(1) / max(1, Int(running.plan.frameRate.rounded()))
        let duration = running.written.lastTime.map { $0 + frameTime } ?? .zero
        return RecordingSummary(path: path, duration: duration, cameras: cameras, droppedPictures: running.droppedPictures, fileSize: size)
    }

    /// Live numbers for a status line: elapsed time, frames per camera, dropped, file size.
    public func liveStatus() -> LiveStatus? {
        guard let running = locked({ graph }) else { return nil }
        let configuration = locked { committed }
        let size = configuration.movieFile.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64 }
        return LiveStatus(
            elapsed: running.pipeline.runningTime ?? .zero,
            frames: running.plan.cameraTaps.map { ($0.inputID, running.captured[$0.inputID]?.value ?? 0) },
            dropped: running.plan.cameraTaps.reduce(running.droppedPictures) { total, tap in
                let frames = running.captured[tap.inputID]?.value ?? 0
                return total + max(0, frames - (running.delivered[tap.inputID]?.value ?? frames) - 3)
            },
            fileSize: size)
    }

    // MARK: errors and devices

    private func handle(_ message: Message, from running: RunningGraph, configuration: SessionConfiguration) {
        guard case .error(let text, let debug) = message.kind else { return }
        let deviceID = running.inputID(forElementPath: message.sourcePath, configuration: configuration)
        let reason = text + (debug.map { " (\($0.split(separator: "\n").first ?? ""))" } ?? "")
        running.firstError.record((deviceID ?? message.sourceName ?? "pipeline") + ": " + reason)
        eventContinuation.yield(.runtimeError(deviceID: deviceID, reason: reason))
        // Before PLAYING, a failure is the start's to handle: it either throws or, once playing, finishes.
        if running.started.isSet { finishAfterFailure(running) }
    }

    /// Keeps what was recorded after a failure: ends the other branches cleanly so the file is finalized.
    private func finishAfterFailure(_ running: RunningGraph) {
        locked {
            guard graph === running, stopTask == nil else { return }
            stopTask = Task { try await self.finish(running, afterFailure: true) }
        }
    }

    /// Reports devices in use going away and coming back, from the device monitor.
    private func watchDevices(_ configuration: SessionConfiguration) {
        let watched: [String: String] = Dictionary(uniqueKeysWithValues: configuration.inputs.compactMap { input in
            if case .v4l2(let path) = input.device.source { return (path, input.id) }
            return nil
        })
        guard !watched.isEmpty else { return }
        let monitor = DeviceMonitor(classes: ["Video/Source"])
        monitorSubscription = monitor.bus.subscribe { [weak self] message in
            switch message.kind {
            case .deviceRemoved(let device):
                if let id = device.properties["device.path"].flatMap({ watched[$0] }) { self?.eventContinuation.yield(.interrupted(deviceID: id)) }
            case .deviceAdded(let device):
                if let id = device.properties["device.path"].flatMap({ watched[$0] }) { self?.eventContinuation.yield(.interruptionEnded(deviceID: id)) }
            default: break
            }
        }
        try? monitor.start()
        self.monitor = monitor
    }
}

/// A snapshot for the status line.
public struct LiveStatus: Sendable {
    public let elapsed: Duration
    public let frames: [(inputID: String, count: Int)]
    public let dropped: Int
    public let fileSize: Int64?
}
