/// How loaded the machine is, as AVCaptureDevice.SystemPressureState.Level: from nominal (all is well)
/// to shutdown (the machine is about to protect itself, e.g. from heat).
public enum PressureLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case nominal, fair, serious, critical, shutdown

    public static func < (lhs: PressureLevel, rhs: PressureLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .nominal: return "nominal"
        case .fair: return "fair"
        case .serious: return "serious"
        case .critical: return "critical"
        case .shutdown: return "shutdown"
        }
    }
}
