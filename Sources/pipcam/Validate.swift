import ArgumentParser
import Capture
import Foundation

struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a session: its description's schema, its devices, and that its graph builds.")

    @OptionGroup
    var sessionOptions: SessionOptions

    func run() async throws {
        // Devices a description names that are absent are drawn instead: the graph is checked all the same.
        let configuration = try sessionOptions.configuration(outputPath: nil, standInsAlways: true)
        let graph = try GraphDescription(configuration)
        try graph.checkBuilds()
        let cameras = configuration.inputs.filter(\.device.isCamera).count
        let microphones = configuration.inputs.count - cameras
        print("\(sessionOptions.source): valid (\(Self.count(cameras, "camera")), \(Self.count(microphones, "microphone")), \(graph.outputSize.width)x\(graph.outputSize.height) at \(graph.frameRate) fps, \(graph.elementCount) elements)")
    }

    /// "1 camera", "2 cameras", "0 microphones".
    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
