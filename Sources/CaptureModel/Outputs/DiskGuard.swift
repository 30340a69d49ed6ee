/// Watches the disk a recording is written to, at the rate the file grows: one warning when what is free
/// lasts less than ten minutes, and a clean stop while there is still room to finish the file (its index,
/// its last pictures), rather than a file cut off by a full disk.
public struct DiskGuard: Sendable {
    public enum Finding: Sendable, Equatable {
        case filling(DiskBudget.Shortfall)
        case full
    }

    /// The recording's file, as the warning names it.
    public let path: String
    private var warned = false

    public init(path: String) { self.path = path }

    /// Room kept to finish the file: five seconds of recording, and never less than 2 MiB.
    public static func reserve(bytesPerSecond: Double) -> Int64 { max(2 << 20, Int64(bytesPerSecond * 5)) }

    /// What `freeBytes` mean for a file of `fileSize` after `elapsed`: nothing in the first second (no rate
    /// yet), the warning once, `full` each time the room left is under the reserve.
    public mutating func check(fileSize: Int64?, elapsed: Duration, freeBytes: Int64?) -> Finding? {
        guard let fileSize, fileSize > 0, elapsed >= .seconds(1), let freeBytes else { return nil }
        let budget = DiskBudget(bytesPerSecond: Double(fileSize) / elapsed.seconds)
        if freeBytes < Self.reserve(bytesPerSecond: budget.bytesPerSecond) { return .full }
        guard !warned, let shortfall = budget.shortfall(freeBytes: freeBytes, path: path) else { return nil }
        warned = true
        return .filling(shortfall)
    }
}
