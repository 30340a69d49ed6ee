import CaptureModel
import Foundation
import GStreamer
import LinuxIO
import Locking

/// What a network camera offers, read by opening it as a recording does (`NetworkCameraSource`) and
/// watching its first second of pictures: `pipcam probe`, and the check that a camera a recording
/// cannot do without answers before anything starts.
public enum NetworkCameraProbe {
    /// The camera's offer, or why there is none: the camera's failure in a few words, or that nothing
    /// came within `timeout`.
    public static func probe(_ camera: NetworkCamera, timeout: Duration = .seconds(10)) -> Result<NetworkCameraOffer, NetworkCameraProbeFailure> {
        if let cause = lookAtServer(of: camera, within: min(timeout, greetingTimeout)) { return .failure(.failed(camera.hidingSecrets(in: cause))) }
        let seen = Locked(Seen())
        let pipeline: Pipeline, bin: Bin, input: Pad
        do {
            pipeline = try Pipeline(name: "pipcam-probe")
            // What the camera sends, when it sends it: its delay only places pictures in a recording.
            var sent = camera
            sent.delay = .zero
            bin = try NetworkCameraSource.make(sent, frameRate: nil, name: "probe")
            let sink = try ElementFactory.fakesink.make(name: "probe-end")
            try sink.set("sync", false)
            try pipeline.add([bin, sink])
            try pipeline.link(bin, sink)
            input = try sink.staticPad("sink")
            input.addBufferProbe { _ in
                let now = ContinuousClock.now
                seen.withValue { seen in
                    if seen.first == nil { seen.first = now }
                    seen.last = now
                    seen.pictures += 1
                }
                return .pass
            }
        } catch {
            return .failure(.unusable("\(error)"))
        }
        let subscription = pipeline.bus.subscribe { message in
            if let undecodable = NetworkCameraFailure.missingDecoder(in: message) { seen.withValue { $0.undecodable = undecodable } }
            if case .error(let text, let debug) = message.kind {
                // pipcam looked at the server before: what fails now is not its reach.
                let failure = NetworkCameraFailure(message, undecodable: seen.value.undecodable)
                    .reason(for: camera, text: RunningGraph.reason(text, debug: debug)) { nil }
                seen.withValue { $0.failure = $0.failure ?? failure }
            }
        }
        defer {
            subscription.cancel()
            _ = try? pipeline.setState(.null)
        }
        _ = try? pipeline.setState(.playing)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let now = seen.value
            if let failure = now.failure { return .failure(.failed(camera.hidingSecrets(in: failure))) }
            // A second of pictures tells the rate they come at.
            if let first = now.first, ContinuousClock.now - first >= .seconds(1) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let result = seen.value
        guard let first = result.first, let last = result.last, let info = input.currentCaps?.videoInfo else { return .failure(.timedOut(timeout)) }
        let stated = info.frameRate.numerator > 0 && info.frameRate.denominator > 0 ? Double(info.frameRate.numerator) / Double(info.frameRate.denominator) : nil
        let measured = result.pictures > 1 ? Double(result.pictures - 1) / (last - first).seconds : nil
        let factories = Set(bin.allElements.map(\.factoryName))
        return .success(NetworkCameraOffer(codec: decoders.first { factories.contains($0.factory) }?.name ?? "video",
                                           width: info.width, height: info.height, frameRate: stated ?? measured ?? 0,
                                           sound: soundDecoders.first { factories.contains($0.factory) }?.name))
    }

    /// How long pipcam's own look at a server may take (within the probe's time).
    static let greetingTimeout: Duration = .seconds(3)

    /// Why the camera's server is not one to open a stream from (nobody listens or answers, no such host,
    /// a server of another kind, a login missing), from pipcam's own connect and request; nil when it
    /// looks right.
    static func lookAtServer(of camera: NetworkCamera, within timeout: Duration) -> String? {
        guard let endpoint = camera.endpoint else { return nil }
        guard let greeting = camera.greeting else { return camera.cause(reach: TCPReach.check(endpoint, within: timeout), firstLine: nil) }
        let answer = TCPReach.firstLine(at: endpoint, sending: greeting, within: timeout)
        return camera.cause(reach: answer.reach, firstLine: answer.line)
    }

    private struct Seen: Sendable {
        var first: ContinuousClock.Instant?
        var last: ContinuousClock.Instant?
        var pictures = 0
        var failure: String?
        var undecodable: String?
    }

    /// The decoders a camera's picture or sound may need, and the name a person knows its format by.
    private static let decoders = [("avdec_h264", "H.264"), ("avdec_h265", "H.265"), ("jpegdec", "MJPEG"), ("avdec_mjpeg", "MJPEG"),
                                   ("avdec_mpeg4", "MPEG-4"), ("vp8dec", "VP8"), ("vp9dec", "VP9")].map { (factory: $0.0, name: $0.1) }
    private static let soundDecoders = [("avdec_aac", "AAC"), ("opusdec", "Opus"), ("mpg123audiodec", "MP3"), ("avdec_mp3", "MP3"),
                                        ("alawdec", "G.711 A-law"), ("mulawdec", "G.711 µ-law"), ("rtpL16depay", "PCM")].map { (factory: $0.0, name: $0.1) }
}
