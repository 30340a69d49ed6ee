import CaptureGraph
import CaptureModel

/// What a graph's event means for the session.
extension GraphEvent {
    /// What the session reports of it; nil for a graph that drained (the stop reports that).
    var sessionEvent: SessionEvent? {
        switch self {
        case .previewClosed: return .previewClosed
        case .failed(let error): return .runtimeError(error)
        case .drained: return nil
        case .interrupted(let input, let reason, let time): return .interrupted(input: input, reason: reason, at: time)
        case .interruptionEnded(let input, let time): return .interruptionEnded(input: input, at: time)
        case .warning(let text): return .warning(text)
        case .stream(let event): return .stream(event)
        case .sound(let alert): return .sound(alert)
        }
    }

    /// Whether it ends the recording, with what was recorded kept: every failure, a closed window, and
    /// a graph that drained. A lost device does not: the recording goes on without it.
    var endsRecording: Bool {
        switch self {
        case .previewClosed, .failed, .drained: return true
        case .interrupted, .interruptionEnded, .warning, .stream, .sound: return false
        }
    }
}
