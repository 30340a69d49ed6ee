/// Everything the wrapper can fail with. Each message names the element, pad or property involved,
/// because a pipeline of twenty elements is undebuggable from "link failed".
public enum GStreamerError: Error, CustomStringConvertible, Equatable {
    case initializationFailed(String)
    case missingElement(factory: String)
    case elementCreationFailed(factory: String)
    case unknownProperty(object: String, property: String)
    case readOnlyProperty(object: String, property: String)
    case writeOnlyProperty(object: String, property: String)
    case wrongPropertyType(object: String, property: String, expected: String, given: String)
    case invalidPropertyValue(object: String, property: String, expected: String, value: String)
    case invalidCaps(String)
    case invalidStructureName(String)
    case addFailed(element: String, bin: String)
    case linkFailed(source: String, sourcePad: String, sink: String, sinkPad: String, reason: String)
    case noSuchPad(element: String, pad: String)
    case stateChangeFailed(element: String, target: String)
    case timeout(String)
    case mapFailed(String)
    case pipelineError(source: String, message: String, debug: String?)
    case pushFailed(element: String, flow: Int)
    /// The desktop's portal shared no screen.
    case screenShare(ScreenShareProblem)

    public var description: String {
        switch self {
        case .initializationFailed(let reason):
            return "GStreamer could not be initialized: \(reason)"
        case .missingElement(let factory):
            return "GStreamer element '\(factory)' is not installed (check `gst-inspect-1.0 \(factory)`)"
        case .elementCreationFailed(let factory):
            return "GStreamer element '\(factory)' exists but could not be created"
        case .unknownProperty(let object, let property):
            return "'\(object)' has no property '\(property)'"
        case .readOnlyProperty(let object, let property):
            return "property '\(property)' of '\(object)' is read-only"
        case .writeOnlyProperty(let object, let property):
            return "property '\(property)' of '\(object)' is write-only"
        case .wrongPropertyType(let object, let property, let expected, let given):
            return "property '\(property)' of '\(object)' expects \(expected), not \(given)"
        case .invalidPropertyValue(let object, let property, let expected, let value):
            return "property '\(property)' of '\(object)' expects \(expected); '\(value)' is not valid"
        case .invalidCaps(let text):
            return "invalid caps '\(text)'"
        case .invalidStructureName(let name):
            return "'\(name)' is not a valid structure name (a letter, then letters, digits or /-_.:+)"
        case .addFailed(let element, let bin):
            return "cannot add '\(element)' to '\(bin)' (the name is taken or it already has a parent)"
        case .linkFailed(let source, let sourcePad, let sink, let sinkPad, let reason):
            return "cannot link '\(source)':\(sourcePad) to '\(sink)':\(sinkPad): \(reason)"
        case .noSuchPad(let element, let pad):
            return "'\(element)' has no pad '\(pad)'"
        case .stateChangeFailed(let element, let target):
            return "'\(element)' failed to change state to \(target)"
        case .timeout(let what):
            return "timed out \(what)"
        case .mapFailed(let what):
            return "could not map \(what)"
        case .pipelineError(let source, let message, let debug):
            return "\(source): \(message)" + (debug.map { " (\($0))" } ?? "")
        case .pushFailed(let element, let flow):
            return "'\(element)' refused a buffer (flow \(flow)): the pipeline is not running"
        case .screenShare(let problem):
            return problem.description
        }
    }
}
