/// Why the desktop's portal shared no screen: what a caller tells a cancelled share from a desktop
/// without screen sharing by.
public enum ScreenShareProblem: Sendable, Equatable, CustomStringConvertible {
    case noPortal
    case noSession
    case noScreen
    case unknownStream
    case noSessionBus(reason: String)
    case sessionBusUnreachable(reason: String)
    /// A property of the portal could not be read over the bus.
    case unreadable(reason: String)
    case requestRefused(method: String, reason: String)
    case cancelled
    case noAnswer
    case refused(method: String)
    case noPipeWire(reason: String?)
    case pipeWireNotTaken(reason: String)

    public var description: String {
        switch self {
        case .noPortal: "the desktop offers no screen sharing (no xdg-desktop-portal with a ScreenCast backend answers)"
        case .noSession: "the screen-sharing portal made no session"
        case .noScreen: "the screen-sharing portal shared no screen"
        case .unknownStream: "the screen-sharing portal answered with an unknown stream"
        case .noSessionBus(let reason): "no session bus to reach the desktop's portal: \(reason)"
        case .sessionBusUnreachable(let reason): "could not reach the session bus: \(reason)"
        case .unreadable(let reason): reason
        case .requestRefused(let method, let reason): "the screen-sharing portal refused \(method): \(reason)"
        case .cancelled: "screen sharing was cancelled"
        case .noAnswer: "the desktop did not answer the request to share the screen in time"
        case .refused(let method): "the desktop refused to share the screen (\(method))"
        case .noPipeWire(let reason): "the screen-sharing portal gave no PipeWire connection" + (reason.map { ": \($0)" } ?? "")
        case .pipeWireNotTaken(let reason): "the PipeWire connection could not be taken: \(reason)"
        }
    }
}
