import ArgumentParser
import Capture

/// `record --stream`: the recording sent live beside the file, added to a description's streams.
struct StreamOptions: ParsableArguments {
    @Option(name: .customLong("stream"), help: ArgumentHelp(
        "Also send the recording live (repeatable): srt://host:port, srt://:port (viewers pull), rtmp://host/app/key or hls:folder; NAME=ADDRESS names it. A stalled network never costs the file.",
        valueName: "address"))
    var addresses: [String] = []

    /// Each `--stream` as a stream, named NAME= or after its kind ("rtmp", "srt-2").
    func streams(besides existing: [StreamOutput]) throws -> [StreamOutput] {
        var streams = existing
        for address in addresses {
            var name: String?, text = address
            // NAME=ADDRESS: a name has no ':' or '/', so an SRT query's '=' is never taken for one.
            if let equals = address.firstIndex(of: "="), !address[..<equals].contains(where: { ":/?".contains($0) }) {
                name = String(address[..<equals])
                text = String(address[address.index(after: equals)...])
            }
            let kind = text.prefix { $0 != ":" }.lowercased()
            let chosen = name ?? Self.unusedName(kind.isEmpty || kind.count > 8 ? "stream" : kind, among: streams)
            do { streams.append(try StreamOutput(name: chosen, address: text)) } catch {
                throw CLIError("--stream: \(CaptureError.streamOutput(name: chosen, error))")
            }
        }
        return streams
    }

    private static func unusedName(_ base: String, among streams: [StreamOutput]) -> String {
        let taken = Set(streams.map(\.name))
        guard taken.contains(base) else { return base }
        return (2...).lazy.map { "\(base)-\($0)" }.first { !taken.contains($0) }!
    }
}
