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

/// `waitFor` on what a running program reports: fails as soon as the program has ended, or once the
/// time is up (the program then stopped), with the last lines it wrote to its error output.
public func waitFor(within seconds: Double, _ what: String, from program: RunningCommand, _ condition: () -> Bool) throws {
    do {
        try waitFor(within: seconds, what) { condition() || !program.isRunning }
        if condition() { return }
        throw ProbeError("the program ended before \(what)")
    } catch {
        let said = program.end(with: SIGINT).error.split(separator: "\n").suffix(5).joined(separator: " | ")
        throw ProbeError("\(error): it said \(said)")
    }
}
