import CaptureGraph
import CaptureModel
import Foundation

/// The multi-camera capture session (`AVCaptureMultiCamSession`): inputs and outputs are added without
/// connections, connections are explicit, and changes are batched between `beginConfiguration()` and
/// `commitConfiguration()`. A commit validates the whole new graph before touching the running one, so a
/// failed commit leaves the session as it was, still recording.
///
/// All cameras, microphones and the writer live in one GStreamer pipeline and so share one clock.
public final class CaptureSession: @unchecked Sendable {
    public enum State: Sendable, Equatable { case idle, running, stopping }

    private let lock = NSLock()
    var committed = SessionConfiguration()
    private var pending: SessionConfiguration?
    private var depth = 0
    var graph: RunningGraph?
    /// The running graph's cameras' controls.
    var cameraControls: CameraControlKeeper?
    var stopTask: Task<RecordingSummary, Never>?
    /// The files a recording goes on in when a structural change starts a new graph.
    let segmentNames = SegmentNames()
    /// Screens shared through the desktop's portal, asked for at the first start and kept across commits.
    let screens = ScreenShares()
    let operations = OperationChain()
    /// Who watches the preview's pictures, which are made only while someone does.
    let previewWatchers = PreviewWatchers()
    /// Each finished file sent off with the upload command.
    public let uploads = SessionUploads()
    let eventContinuation: AsyncStream<SessionEvent>.Continuation

    /// Every event the session reports, in order.
    public let events: AsyncStream<SessionEvent>

    /// Stop by itself once this much has been recorded into the current file (the file is cut at
    /// exactly this time).
    public var recordingLimit: Duration? {
        get { locked { limit } }
        set { locked { limit = newValue } }
    }
    private var limit: Duration?

    public init() {
        (events, eventContinuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .unbounded)
    }

    public convenience init(configuration: SessionConfiguration) throws {
        self.init()
        try configuration.validate()
        committed = configuration
    }

    deinit { eventContinuation.finish() }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    public var state: State {
        locked { graph == nil ? .idle : (stopTask == nil ? .running : .stopping) }
    }

    /// The configuration that is running (or will run on start).
    public var configuration: SessionConfiguration { locked { committed } }

    func setCommitted(_ configuration: SessionConfiguration) { locked { committed = configuration } }

    /// The plan of the running graph, for status and tests.
    public var runningPlan: GraphPlan? { locked { graph?.plan } }

    /// The mode each running camera captures in, by input.
    public var cameraModes: [String: CaptureMode] { locked { graph?.plan.cameraModes } ?? [:] }

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
        try await operations.run { try await self.apply(candidate) }
    }

    /// Runs `change` on the pending configuration; outside a batch it is its own batch.
    private func edit(_ change: (inout SessionConfiguration) throws -> Void) async throws {
        let ownBatch: Bool = try locked {
            let own = depth == 0
            if own {
                pending = committed
                depth = 1
            }
            guard var copy = pending else { throw CaptureError.invalidConfiguration("the configuration changed while it was being edited") }
            do {
                try change(&copy)
            } catch {
                if own { depth = 0; pending = nil }
                throw error
            }
            pending = copy
            return own
        }
        if ownBatch { try await commitConfiguration() }
    }

    /// Removes an output and every connection to it.
    public func removeOutput(id: String) async throws {
        try await edit { $0.removeOutput(id: id) }
    }

    /// Replaces any part of the configuration (preset, layout, active formats…) in one step.
    public func update(_ change: @Sendable (inout SessionConfiguration) -> Void) async throws {
        try await edit { change(&$0) }
    }

    /// Exchanges the main and inset cameras while running (the double tap of AVMultiCamPiP); with audio
    /// following the main camera, the heard microphone switches too.
    public func swapCameras() async throws {
        try await edit { configuration in
            guard let composed = configuration.composedCameras(), let inset = composed.inset else {
                throw CaptureError.invalidConfiguration("swapping needs two cameras in the picture")
            }
            configuration.layout.mainInputID = inset.inputPorts[0].inputID
        }
    }
}
