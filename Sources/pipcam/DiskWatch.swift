import Capture
import Foundation

/// Watches the disk a recording is written to, at the rate the file grows: one line when what is free
/// lasts less than ten minutes, and a clean stop while there is still room to finish the file (its
/// index, its last pictures), rather than a file cut off by a full disk.
struct DiskWatch {
    enum Finding: Equatable {
        case filling(String)
        case full
    }

    let path: String
    private var warned = false

    init(path: String) { self.path = path }

    /// Room kept to finish the file: five seconds of recording, and never less than 2 MiB.
    static func reserve(bytesPerSecond: Double) -> Int64 { max(2 << 20, Int64(bytesPerSecond * 5)) }

    mutating func check(_ live: LiveStatus) -> Finding? {
        guard let size = live.fileSize, size > 0, live.elapsed >= .seconds(1), let free = OutputPath.freeBytes(at: path) else { return nil }
        let budget = DiskBudget(bytesPerSecond: Double(size) / live.elapsed.seconds)
        if free < Self.reserve(bytesPerSecond: budget.bytesPerSecond) { return .full }
        guard !warned, let shortfall = budget.shortfall(freeBytes: free, path: path) else { return nil }
        warned = true
        return .filling("warning: the disk is filling up: \(shortfall.room)")
    }
}
