import CaptureModel
import GStreamer

extension SessionConfiguration {
    /// Opens every clip a camera plays (a `file:` camera) and decodes its start, within `timeout` each:
    /// a clip that is not a video (a text file, a cut-off download, sound only) is refused before
    /// anything starts, in one line naming the camera and the file, instead of failing the start in
    /// GStreamer's words or recording a black picture. A YUV4MPEG clip pipcam reads itself needs its
    /// first picture whole.
    public func checkClips(timeout: Duration = .seconds(5)) throws {
        for input in inputs {
            guard case .file(let path) = input.device.source else { continue }
            let problem: String
            switch Y4MClip.reading(ofFileAt: path) {
            case .mapped(let header):
                guard !Y4MClip.holdsAPicture(ofFileAt: path, header: header) else { continue }
                throw CaptureError.invalidConfiguration("camera '\(input.id)': the clip \(path) holds no whole picture")
            case .raw:
                continue
            case .decoded:
                break
            }
            switch MediaDiscovery.inspect(path: path, timeout: timeout) {
            case .video: continue
            case .noVideo: problem = "holds no picture"
            case .unplayable(let reason): problem = "cannot be played: \(reason)"
            case .timedOut: problem = "was not understood within \(Int(timeout.seconds)) s"
            }
            throw CaptureError.invalidConfiguration("camera '\(input.id)': the clip \(path) \(problem)")
        }
    }
}
