import CaptureModel
import Foundation
import GStreamer
import Locking

extension SessionConfiguration {
    /// Reads every clip a camera plays (a `file:` camera) as the recording will, within `timeout` each: a
    /// clip that is not a video (a text file, a cut-off download, sound only, a header with no picture
    /// after it) is refused before anything starts, in one line naming the camera and the file, instead of
    /// failing the start in GStreamer's words or recording a black picture. A YUV4MPEG clip pipcam reads
    /// itself needs a header it can replay and its first picture whole.
    public func checkClips(timeout: Duration = .seconds(5)) throws {
        for input in inputs {
            guard case .file(let path) = input.device.source else { continue }
            if let problem = Self.problem(ofClip: path, timeout: timeout) {
                throw CaptureError.invalidConfiguration("camera '\(input.id)': the clip \(path) \(problem)")
            }
        }
    }

    /// What keeps the clip at `path` from being replayed, in a few words; nil when it gives a picture.
    private static func problem(ofClip path: String, timeout: Duration) -> String? {
        switch Y4MClip.reading(ofFileAt: path) {
        case .mapped(let header), .raw(let header):
            return Y4MClip.holdsAPicture(ofFileAt: path, header: header) ? nil : "holds no whole picture"
        case .unreadable(let error):
            return error.description
        case .decoded:
            break
        }
        let start = ContinuousClock.now
        switch MediaDiscovery.inspect(path: path, timeout: timeout) {
        case .video: break
        case .noVideo: return "holds no picture"
        case .unplayable(let reason): return "cannot be played: \(reason)"
        case .timedOut: return "was not understood within \(Int(timeout.seconds)) s"
        }
        // A file can describe a video track and hold no picture (a recording cut off after its header):
        // the recording would wait for a first picture that never comes.
        switch firstPicture(ofClip: path, timeout: max(.seconds(1), timeout - (ContinuousClock.now - start))) {
        case .some(true): return nil
        case .some(false): return "holds no picture"
        case nil: return "gave no picture within \(Int(timeout.seconds)) s"
        }
    }

    /// Whether the clip's decoder gives a picture, read by the elements the recording reads it with:
    /// true once one reaches the end, false when the clip ends first, nil when neither happens in time.
    private static func firstPicture(ofClip path: String, timeout: Duration) -> Bool? {
        var plan = GraphPlan()
        let decode = plan.add("clip-decode", .decodebin)
        plan.markDynamic(decode)
        plan.chain([plan.add("clip-src", .filesrc, [("location", .string(path))]), decode, plan.add("clip-end", .fakesink)])
        guard let pipeline = try? PipelineAssembler.assemble(plan, name: "pipcam-clip-check"),
              let end = pipeline[ElementHandle<Element>("clip-end")], let input = try? end.staticPad("sink") else { return nil }
        defer { _ = try? pipeline.setState(.null) }
        let pictures = Locked(0)
        input.addBufferProbe { _ in pictures.withValue { $0 += 1 }; return .pass }
        // The sink is ready once its first picture or the end of the clip reaches it.
        do {
            try pipeline.setState(.paused)
            _ = try pipeline.waitForState(timeout: timeout)
        } catch GStreamerError.timeout(_) {
            return pictures.value > 0 ? true : nil
        } catch {
            return pictures.value > 0
        }
        return pictures.value > 0
    }
}
