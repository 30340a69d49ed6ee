import CaptureModel
import GStreamer

/// What a running graph hands the program at its appsinks: each video and audio data output's samples,
/// numbered as they arrive (a gap is a discarded one), the preview's JPEG pictures for the web page, and
/// the encoded picture's last seconds for live photos. Holds the subscriptions for as long as the graph runs.
final class DataDeliveries: @unchecked Sendable {
    /// The last seconds of the encoded picture, when the photo output takes live photos.
    let livePhotoRing: LivePhotoRing?
    private var subscriptions: [AppSinkSubscription] = []

    init(plan: GraphPlan, configuration: SessionConfiguration, pipeline: Pipeline) {
        let sink = plan.livePhotoSink.flatMap { pipeline[$0] }
        livePhotoRing = sink.map { _ in LivePhotoRing() }
        if let ring = livePhotoRing, let sink { subscriptions.append(sink.onSample(ring.add, ended: ring.finish)) }
        for output in configuration.videoDataOutputs {
            deliver(output.id, to: output.delivery, discardsLate: output.alwaysDiscardsLateVideoFrames, plan: plan, configuration: configuration,
                    pipeline: pipeline) { VideoDataFrame(sample: $0, cameraID: $1, sequenceNumber: $2) }
        }
        if let preview = configuration.previewOutput, let pictures = preview.pictures,
           let sink = plan.appSinks[preview.id].flatMap({ pipeline[$0] }) {
            subscriptions.append(sink.onSample { sample in
                guard let jpeg = try? sample.withBytes({ Array($0) }) else { return }
                pictures.delivery.offer(PreviewPicture(jpeg: jpeg, sequenceNumber: pictures.delivery.nextSequenceNumber()))
            })
        }
        for output in configuration.audioDataOutputs {
            deliver(output.id, to: output.delivery, discardsLate: output.alwaysDiscardsLateBuffers, plan: plan, configuration: configuration,
                    pipeline: pipeline) { AudioDataBuffer(sample: $0, microphoneID: $1, sequenceNumber: $2) }
        }
    }

    /// Hands a data output's samples to its delivery, each made into what the output gives by `make`
    /// from the sample, the device id and the number.
    private func deliver<Item>(_ outputID: String, to delivery: DataDelivery<Item>, discardsLate: Bool, plan: GraphPlan,
                               configuration: SessionConfiguration, pipeline: Pipeline, make: @escaping @Sendable (Sample, String, Int) -> Item?) {
        guard let sink = plan.appSinks[outputID].flatMap({ pipeline[$0] }), let deviceID = configuration.deviceID(feeding: outputID) else { return }
        delivery.configure(discardsLate: discardsLate)
        subscriptions.append(sink.onSample { sample in
            if let item = make(sample, deviceID, delivery.nextSequenceNumber()) { delivery.offer(item) }
        })
    }
}
