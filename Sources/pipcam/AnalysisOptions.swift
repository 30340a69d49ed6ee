import ArgumentParser
import Capture
import Foundation

/// `record --analyze FILE.jsonl`: per-frame brightness and motion, per-buffer sound levels, and scene
/// advice, written as JSON lines while recording.
struct AnalysisOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Write per-frame and per-buffer measurements to this file, as JSON lines.", valueName: "file.jsonl"))
    var analyze: String?

    @Option(name: .customLong("analyze-size"), help: "Frame size to analyze at, WxH, or 'captured' for the frames as captured.")
    var size = "160x90"

    @Option(name: .customLong("dark-threshold"), help: "Mean luma (0-255) under which a camera is too dark, held for 2 s.")
    var darkThreshold = 40.0

    func validate() throws {
        if size != "captured" && PixelSize(size) == nil {
            throw ValidationError("--analyze-size takes WxH (e.g. 160x90) or 'captured', not '\(size)'")
        }
        if !(0...255).contains(darkThreshold) { throw ValidationError("--dark-threshold is a luma between 0 and 255, not \(darkThreshold)") }
    }

    /// Adds the analyzer's taps to `configuration` and opens the log; nil without --analyze.
    func start(on configuration: inout SessionConfiguration, force: Bool) throws -> AnalysisLog? {
        guard let analyze else { return nil }
        let log = try AnalysisLog(path: analyze, force: force)
        let analyzer = SessionAnalyzer(size: size == "captured" ? nil : PixelSize(size), darkThreshold: darkThreshold) { record in
            log.write(record)
        }
        analyzer.attach(to: &configuration)
        log.analyzer = analyzer
        return log
    }
}

/// The JSON-lines file of an analysis. Lines are buffered and written in blocks; `finish` writes the
/// rest once the analyzer has caught up, so a stopped recording's log is complete.
final class AnalysisLog: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var pending = Data()
    var analyzer: SessionAnalyzer?

    init(path: String, force: Bool) throws {
        handle = try LogFile.create(path, force: force, what: "analysis")
    }

    func write(_ record: SessionAnalyzer.Record) {
        let line = Self.line(record)
        if case .advice(let device, _, .tooDark(let luma)) = record {
            FileHandle.standardError.write(Data(String(format: "\nadvice: %@ is too dark (mean luma %.0f of 255); add light\n", device, luma).utf8))
        }
        lock.withLock {
            pending.append(line)
            if pending.count >= 1 << 16 { flushLocked() }
        }
    }

    func finish() {
        analyzer?.drain()
        lock.withLock { flushLocked() }
        try? handle.close()
    }

    private func flushLocked() {
        try? handle.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// One JSON object: `event` says what it is, `time` is seconds of recording, `device` the device id.
    /// Written by hand rather than through JSONSerialization: a line per frame of every camera adds up.
    static func line(_ record: SessionAnalyzer.Record) -> Data {
        var fields: [(String, String)]
        switch record {
        case .frame(let device, let time, let sequence, let meanLuma, let motion):
            fields = [("event", quoted("frame")), ("device", quoted(device)), ("time", number(time.seconds, 4)),
                      ("sequence", String(sequence)), ("luma", number(meanLuma, 2)), ("motion", number(motion, 4))]
        case .sound(let device, let time, let sequence, let levels):
            fields = [("event", quoted("sound")), ("device", quoted(device)), ("time", number(time.seconds, 4)), ("sequence", String(sequence)),
                      ("rms", "[" + levels.rms.map { number($0, 4) }.joined(separator: ",") + "]"),
                      ("peak", "[" + levels.peak.map { number($0, 4) }.joined(separator: ",") + "]")]
        case .advice(let device, let time, let advice):
            fields = [("event", quoted("advice")), ("device", quoted(device)), ("time", number(time.seconds, 4))]
            switch advice {
            case .tooDark(let luma): fields += [("advice", quoted("too-dark")), ("luma", number(luma, 2))]
            case .brightEnough(let luma): fields += [("advice", quoted("bright-enough")), ("luma", number(luma, 2))]
            }
        }
        return Data(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n").utf8)
    }

    /// A JSON string: device ids are paths and names, so only quotes, backslashes and controls need escaping.
    private static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    private static func number(_ value: Double, _ places: Int) -> String {
        let scaled = rounded(value, places)
        return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }

    private static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
