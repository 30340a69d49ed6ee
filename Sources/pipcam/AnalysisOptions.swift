import ArgumentParser
import Capture
import Foundation
import Locking

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
    /// Times to a tenth of a millisecond, luma to two places, motion and levels to four: what the
    /// measurements resolve, and a line per frame of every camera stays short.
    static func line(_ record: SessionAnalyzer.Record) -> Data {
        var fields: [String: JSONValue]
        switch record {
        case .frame(let device, let time, let sequence, let meanLuma, let motion):
            fields = ["event": "frame", "device": .string(device), "time": .number(time.seconds, places: 4), "sequence": .integer(sequence),
                      "luma": .number(meanLuma, places: 2), "motion": .number(motion, places: 4)]
        case .sound(let device, let time, let sequence, let levels):
            fields = ["event": "sound", "device": .string(device), "time": .number(time.seconds, places: 4), "sequence": .integer(sequence),
                      "rms": .array(levels.rms.map { .number($0, places: 4) }), "peak": .array(levels.peak.map { .number($0, places: 4) })]
        case .advice(let device, let time, let advice):
            fields = ["event": "advice", "device": .string(device), "time": .number(time.seconds, places: 4)]
            switch advice {
            case .tooDark(let luma): fields.merge(["advice": "too-dark", "luma": .number(luma, places: 2)]) { $1 }
            case .brightEnough(let luma): fields.merge(["advice": "bright-enough", "luma": .number(luma, places: 2)]) { $1 }
            }
        }
        return Data((JSONValue.object(fields).text + "\n").utf8)
    }
}
