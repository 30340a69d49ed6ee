/// What pipcam's summary says, read back by the tests that check it is true.
public enum SummaryText {
    /// "  room: 2.45 s of its sound lost: …": the sound the summary says a microphone lost, 0 when it
    /// says nothing of it.
    public static func soundLost(of inputID: String, in summary: String) -> Double {
        summary.split(separator: "\n").first { $0.hasPrefix("  \(inputID): ") && $0.contains(" of its sound lost") }
            .flatMap { Double($0.dropFirst(inputID.count + 4).prefix { $0 != " " }) } ?? 0
    }
}
