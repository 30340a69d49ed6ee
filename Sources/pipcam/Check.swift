import ArgumentParser
import Capture
import Foundation

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what a session costs this machine (USB bandwidth, CPU) and, over budget, what to change.",
        discussion: """
            A cost of 1 is all the machine has; above it the session cannot run as configured. Exits with 0 when \
            it fits, 2 when it is over budget, 1 on any other error, so `pipcam check && pipcam record …` works.
            The machine is measured once (a few seconds) and the result kept in ~/.cache/pipcam.
            """)

    @OptionGroup
    var sessionOptions: SessionOptions

    @Flag(name: .long, help: "Measure the machine again instead of using the kept measurement.")
    var recalibrate = false

    @Flag(name: .customLong("live-view"), help: "Count the web page's live picture too, as `record --web` and `serve` make it while watched.")
    var liveView = false

    func run() async throws {
        // The recording's cost, with nothing recorded: its file is only named.
        var configuration = try sessionOptions.configuration(outputPath: nil)
        if liveView { configuration.attachPreviewPictures() }
        let budget = try await CostCheck.measuredBudget(remeasure: recalibrate) {
            FileHandle.standardError.write(Data("measuring this machine (a few seconds, once)…\n".utf8))
        }
        let check = CostCheck(configuration, budget: budget)
        let cost = try check.cost()
        print(cost.report(title: sessionOptions.source))
        print(Self.ladder(configuration))
        for note in CaptureLibrary.absentOptionalElements { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        guard cost.isOverBudget else { return }
        print(HardwareCost.remedyList(try check.remedies()))
        throw ExitCode(2)
    }

    /// The throttle steps a recording of this configuration would take under pressure, lightest last.
    static func ladder(_ configuration: SessionConfiguration) -> String {
        let policy = configuration.throttlePolicy
        let steps = policy.ladder(frameRate: configuration.effectiveFrameRate).rungs.dropFirst().map(\.change)
        guard policy.isEnabled, !steps.isEmpty else { return "  under load: no throttle steps" }
        return "  under load, in steps: " + steps.joined(separator: ", ")
    }
}
