import ArgumentParser
import Capture

/// `--duration`: how long `record` and `stream` run before they stop by themselves, exact to the frame.
struct DurationOption: ParsableArguments {
    // Read even when it starts with "-", so that "--duration -1" is refused for its value, not as missing.
    @Option(name: .long, parsing: .unconditional, help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        if let duration, !SessionLimits.recordingSeconds.contains(duration) {
            throw ValidationError("--duration is \(SessionLimits.text(SessionLimits.recordingSeconds)) seconds, not \(duration)")
        }
    }

    /// The session's limit (`CaptureSession.recordingLimit`); nil runs until stopped.
    var limit: Duration? { duration.map { .milliseconds(Int64($0 * 1000)) } }
}
