/// Everything the capture layer reports as failing, by what failed, with its cause kept: callers tell a
/// configuration to fix from a device that failed, and tests match cases instead of message prefixes.
/// Each description is the one line a user reads.
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
    /// A photo could not be taken as asked (the session's state, its outputs, its cameras).
    case photo(String)
    /// A still could not be encoded.
    case still(String)
    /// A live photo's clip could not be written.
    case clip(String)
    /// Measuring the machine's budget failed.
    case calibration(String)
    /// Nothing pipcam can change brings the cost within the machine's budget.
    case overBudget(String)
    /// No window can be opened for a preview.
    case display(String)
    /// A camera refused a control value.
    case cameraControl(String)
    /// The disk the file is written to is full: the recording ends with what it holds.
    case diskFull(path: String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let text), .photo(let text), .still(let text), .clip(let text), .calibration(let text),
             .overBudget(let text), .display(let text), .cameraControl(let text):
            return text
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
