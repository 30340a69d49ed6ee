import ArgumentParser
import Capture
import Foundation

struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a pipeline description: schema, devices, and that its graph builds.")

    @Argument(help: "A pipeline description file.")
    var file: String

    func run() async throws {
        let (configuration, notes) = try SessionLoading.fromDescription(file, outputPath: "/dev/null", standIns: true)
        let plan = try configuration.graphPlan()
        try plan.checkBuilds()
        let cameras = configuration.inputs.filter(\.device.isCamera).count
        let microphones = configuration.inputs.count - cameras
        print("\(file): valid (\(cameras) cameras, \(microphones) microphones, \(plan.outputSize.width)x\(plan.outputSize.height) at \(plan.frameRate) fps, \(plan.nodes.count) elements)")
        for note in notes { print("  note: \(note)") }
    }
}
