import CaptureModel
import GStreamer

/// The recording's streams: each stream's connection fed from the program's taps (`StreamPart`), its
/// state for the status line, its numbers for the summary, and its end with the recording's.
final class StreamWriter: @unchecked Sendable {
    private let connections: [StreamConnection]
    private let subscriptions: [AppSinkSubscription]

    init(plan: GraphPlan, configuration: SessionConfiguration, pipeline: Pipeline) throws {
        var connections: [StreamConnection] = [], subscriptions: [AppSinkSubscription] = []
        for stream in configuration.streams {
            guard let picture = (plan.streamTaps.ownPictures[stream.name] ?? plan.streamTaps.picture).flatMap({ pipeline[$0] }) else { continue }
            let sound = plan.streamTaps.aac.flatMap { pipeline[$0] }
            // A stream that starts or resumes asks the picture's encoder for a key frame, up through the tap.
            let tapPad = try picture.staticPad("sink")
            let connection = StreamConnection(stream, hasSound: sound != nil) { tapPad.requestKeyFrame() }
            subscriptions.append(picture.onSample { connection.deliverPicture($0) })
            if let sound { subscriptions.append(sound.onSample { connection.deliverSound($0) }) }
            connections.append(connection)
        }
        self.connections = connections
        self.subscriptions = subscriptions
    }

    /// Where the streams' events go; a required stream that cannot start is a failure of the recording.
    func start(onEvent: @escaping @Sendable (GraphEvent) -> Void) {
        for connection in connections {
            connection.start(onEvent: { onEvent(.stream($0)) }, onStartFailure: { onEvent(.failed($0)) })
        }
    }

    var status: [StreamStatus] { connections.map(\.status) }
    var summaries: [StreamSummary] { connections.map(\.summary) }

    /// Starts or stops the stream `name` (nil: the other way round) while the recording goes on;
    /// returns whether it is on now.
    func turn(_ name: String, on: Bool?) throws -> Bool {
        guard let connection = connections.first(where: { $0.stream.name == name }) else {
            throw CaptureError.streamOutput(name: name, .malformed("there is no such stream (streams: \(connections.map(\.stream.name).joined(separator: ", ")))"))
        }
        return connection.turn(on: on ?? (connection.status.state == .stopped))
    }

    /// Ends every stream, together: each sends what it holds, for a few seconds at most.
    func finish() async {
        for subscription in subscriptions { subscription.cancel() }
        await withTaskGroup(of: Void.self) { group in
            for connection in connections { group.addTask { await connection.finish() } }
        }
    }
}
