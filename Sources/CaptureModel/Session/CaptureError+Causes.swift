/// Why a photo, a bracket, a still or a live photo could not be made as asked.
public enum PhotoProblem: Sendable, Equatable, CustomStringConvertible {
    case sessionNotRunning
    case noPhotoOutput
    case noFolder(String)
    case bracketCount(Int)
    case livePhotoOff
    case endedBeforeLivePhoto
    /// No camera has any of these controls (pipcam's names) to bracket.
    case nothingToBracket(looked: [String])
    case cameraNotRunning(String)
    case noCamera
    case stillWithoutFormat
    case stillNotEncoded(file: String, reason: String)
    case livePhotoWithoutPictures
    case livePhotoNotWritten(reason: String)

    public var description: String {
        switch self {
        case .sessionNotRunning: "the session is not running; photos are taken from running cameras"
        case .noPhotoOutput: "the session has no photo output"
        case .noFolder(let folder): "the photo folder \(folder) does not exist"
        case .bracketCount(let count): "bracketing takes 2 to 9 stills, not \(count)"
        case .livePhotoOff: "live photos need the photo output's live photo capture on before the session starts"
        case .endedBeforeLivePhoto: "the recording ended before the live photo's last 1.5 s"
        case .nothingToBracket(let looked):
            "no camera of the session has a control to bracket (looked for \(looked.joined(separator: ", ")); synthetic and file cameras have no controls)"
        case .cameraNotRunning(let camera): "camera '\(camera)' is not running"
        case .noCamera: "no camera is connected to the photo output"
        case .stillWithoutFormat: "a still without a picture format"
        case .stillNotEncoded(let file, let reason): "could not encode the still \(file): \(reason)"
        case .livePhotoWithoutPictures: "no pictures to write a live photo from"
        case .livePhotoNotWritten(let reason): "could not write the live photo: \(reason)"
        }
    }
}

/// Why a camera's controls could not be read or set.
public enum ControlProblem: Sendable, Equatable, CustomStringConvertible {
    case sessionNotRunning
    case noMatchedPair
    case noCamera(String)
    /// A drawn or file camera: its pictures are made by pipcam.
    case noControls(camera: String)
    /// The settings asked do not fit what the camera offers (a name, a value, a menu entry).
    case settings(String)
    case refused(node: String, control: String, value: Int64, reason: String)
    case unreadable(node: String, control: String)
    case cannotOpen(node: String, reason: String)

    public var description: String {
        switch self {
        case .sessionNotRunning: "the session is not running"
        case .noMatchedPair: "matching needs two cameras with controls"
        case .noCamera(let id): "no camera '\(id)' in the session"
        case .noControls(let id): "camera '\(id)' has no controls: its pictures are made by pipcam"
        case .settings(let problem): problem
        case .refused(let node, let control, let value, let reason): "camera \(node) refused \(control) = \(value): \(reason)"
        case .unreadable(let node, let control): "camera \(node): \(control) cannot be read"
        case .cannotOpen(let node, let reason): "cannot open the camera \(node) for its controls: \(reason)"
        }
    }
}

/// Why no preview window can be opened.
public enum DisplayProblem: Sendable, Equatable, CustomStringConvertible {
    case xServerUnreachable(display: String)
    case waylandUnreachable(display: String)
    case noDisplay

    public var description: String {
        switch self {
        case .xServerUnreachable(let display): "cannot open the display \(display) to show a preview (is the X server running?)"
        case .waylandUnreachable(let display): "cannot open the Wayland display \(display) to show a preview"
        case .noDisplay: "no display to show a preview on: DISPLAY and WAYLAND_DISPLAY are not set (run it in a desktop session; record works without one)"
        }
    }
}

/// Why the machine's budget could not be measured.
public enum CalibrationProblem: Sendable, Equatable, CustomStringConvertible {
    case tookTooLong
    case failed(reason: String)

    public var description: String {
        switch self {
        case .tookTooLong: "measuring this machine took over a minute; is it overloaded?"
        case .failed(let reason): "measuring this machine failed: \(reason)"
        }
    }
}
