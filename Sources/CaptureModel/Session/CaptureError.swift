/// Everything the graph and the session report as failing, by what failed, with its cause kept as a value
/// (`PhotoProblem`, `ControlProblem`, …): callers tell a configuration to fix from a device that failed, a
/// control socket or a web page can answer with the case, and tests match cases instead of message
/// prefixes. Each description is the one line a user reads, made here once. The layers below have one
/// error each (`GStreamerError`, `MatroskaRepair.Failure`); a description file's is `DescriptionError`.
public enum CaptureError: Error, CustomStringConvertible {
    /// The configuration cannot run as it is; the text says what to change.
    case invalidConfiguration(String)
    /// A graph did not start; `input` is the camera or microphone whose element failed and `element`
    /// the element, when an element's error says why.
    case startFailed(input: String?, element: String?, cause: String)
    /// A structural change did not start; the previous configuration goes on recording.
    case commitFailed(cause: any Error)
    /// An element failed while running; `input` is its camera or microphone, `element` the element, `code`
    /// GLib's domain and code for what went wrong (a busy device, a closed window…).
    case streamFailed(input: String?, element: String?, code: FailureCode?, reason: String)
    /// The desktop did not share a screen an input reads.
    case screenShare(input: String, cause: any Error)
    /// A photo, a still or a live photo could not be made as asked (the session's state, its outputs,
    /// its cameras, the encoder).
    case photo(PhotoProblem)
    /// Measuring the machine's budget failed.
    case calibration(CalibrationProblem)
    /// Nothing pipcam can change brings the cost within the machine's budget: it stays at `cost`.
    case overBudget(cost: Double)
    /// No window can be opened for a preview.
    case display(DisplayProblem)
    /// A camera's controls could not be read or set.
    case cameraControl(ControlProblem)
    /// The disk the file is written to is full: the recording ends with what it holds.
    case diskFull(path: String)
    /// Elements a graph needs that this machine lacks; the text names the packages that bring them.
    case missingElements([ElementFactory])
    /// A recording could not be exported; `reason` is what the media library said.
    case exportFailed(reason: String)
    /// A stream cannot be made as asked, or (required) could not start.
    case streamOutput(name: String, StreamProblem)

    public var description: String {
        switch self {
        case .invalidConfiguration(let text):
            return text
        case .photo(let problem):
            return problem.description
        case .calibration(let problem):
            return problem.description
        case .overBudget(let cost):
            return "no change pipcam can make brings the cost under 1 (it stays at \(String(format: "%.2f", cost)))"
        case .display(let problem):
            return problem.description
        case .cameraControl(let problem):
            return problem.description
        case .startFailed(let input, let element, let cause):
            return "could not start: " + ((input ?? element).map { "\($0): " } ?? "") + cause
        case .commitFailed(let cause):
            return "the new configuration did not start, the previous one goes on: \(cause)"
        case .streamFailed(let input, _, _, let reason):
            return (input.map { "\($0): " } ?? "") + reason
        case .screenShare(let input, let cause):
            return "\(input): \(cause)"
        case .diskFull(let path):
            return "disk full writing \(path)"
        case .missingElements(let factories):
            let names = factories.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            let (verb, noun) = factories.count == 1 ? ("is", "element") : ("are", "elements")
            return "GStreamer \(noun) \(names) \(verb) not installed: sudo apt-get install \(ElementFactory.packages(of: factories).joined(separator: " "))"
        case .exportFailed(let reason):
            return reason
        case .streamOutput(let name, let problem):
            return "stream '\(name)': \(problem)"
        }
    }
}

/// A GLib error's domain (its quark's name, e.g. "gst-resource-error-quark") and its code in that domain,
/// as GStreamer reported them: what a caller tells failures apart by, whatever language the text is in.
public struct FailureCode: Sendable, Hashable {
    public let domain: String
    public let code: Int

    public init(domain: String, code: Int) {
        self.domain = domain
        self.code = code
    }
}
