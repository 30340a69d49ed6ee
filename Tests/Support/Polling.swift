import Foundation

/// Polls `condition` every 50 ms until it holds, failing after `seconds`: how a test waits for what a
/// program it runs reports (an event, a file), never a sleep standing in for it.
public func waitFor(within seconds: Double, _ what: String, _ condition: () -> Bool) throws {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else { throw ProbeError("waited \(seconds) s for \(what)") }
        Thread.sleep(forTimeInterval: 0.05)
    }
}
