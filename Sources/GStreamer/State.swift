import CGStreamer

/// An element's state (GstState).
public enum State: Int32, Sendable, CustomStringConvertible {
    case voidPending = 0, null, ready, paused, playing

    init(_ raw: GstState) { self = State(rawValue: Int32(raw.rawValue)) ?? .voidPending }
    var raw: GstState { GstState(rawValue: UInt32(rawValue)) }

    public var description: String {
        switch self {
        case .voidPending: return "VOID_PENDING"
        case .null: return "NULL"
        case .ready: return "READY"
        case .paused: return "PAUSED"
        case .playing: return "PLAYING"
        }
    }
}

/// The ways a state change can succeed; failure is a thrown error instead.
public enum StateChange: Sendable, Equatable {
    /// Done.
    case success
    /// Will complete in the background (wait with `waitForState`).
    case async
    /// Done, but a live source will not preroll in PAUSED.
    case noPreroll

    init?(_ raw: GstStateChangeReturn) {
        switch raw {
        case GST_STATE_CHANGE_SUCCESS: self = .success
        case GST_STATE_CHANGE_ASYNC: self = .async
        case GST_STATE_CHANGE_NO_PREROLL: self = .noPreroll
        default: return nil
        }
    }
}
