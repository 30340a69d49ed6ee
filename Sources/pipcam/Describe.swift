import ArgumentParser
import Capture
import Foundation

struct Describe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the gst-launch-1.0 line of the graph pipcam builds, and optionally a Graphviz file of it.")

    @OptionGroup
    var sessionOptions: SessionOptions

    @Option(name: .long, help: "Write the graph as Graphviz DOT to this file.")
    var dot: String?

    @Option(name: .long, help: "The file the described line records to (default: the file's output.file, else pipcam.mkv).")
    var output: String?

    func run() async throws {
        let configuration = try sessionOptions.configuration(outputPath: output, standInsAlways: true)
        let graph = try GraphDescription(configuration)
        print(graph.launchLine)
        // Each stream runs in a pipeline of its own, fed from the line's stream taps: said beside it, so
        // the line itself still runs as it is.
        for stream in configuration.streams {
            FileHandle.standardError.write(Data("stream '\(stream.name)' to \(stream.shownAddress): a pipeline of its own, fed from stream-picture and stream-aac\n".utf8))
        }
        if let dot {
            try graph.writeDotGraph(to: dot)
            FileHandle.standardError.write(Data("wrote \(dot)\n".utf8))
        }
    }
}
