/// A session's events as the JSON lines of `record --events` and of the web page's WebSocket: one object
/// with an "event" field each, so a script reads both the same way.
extension SessionEvent {
    /// The event's line, or nil for events that are reported otherwise (the start, the summary, warnings).
    public var jsonLine: String? {
        switch self {
        case .pressure(let sample): return sample.jsonLine
        case .throttled(let step): return step.jsonLine
        case .interrupted(let input, let reason, let time):
            return JSONValue.object(["event": "interrupted", "input": .string(input), "reason": .string(reason.kind),
                                     "detail": .string(reason.description), "time": .number(time.seconds, places: 3)]).text
        case .interruptionEnded(let input, let time):
            return JSONValue.object(["event": "interruption-ended", "input": .string(input), "time": .number(time.seconds, places: 3)]).text
        case .controlsChanged(let camera, let controls, let time):
            let values = Dictionary(controls.compactMap { control in control.value.map { (control.name, JSONValue.number(Double($0), places: 0)) } }) { $1 }
            return JSONValue.object(["event": "control", "camera": .string(camera), "set": .object(values), "time": .number(time.seconds, places: 3)]).text
        case .stream(let event):
            var fields: [String: JSONValue] = ["event": .string("stream"), "stream": .string(event.stream)]
            switch event.kind {
            case .connected: fields["what"] = .string("connected")
            case .lost(let reason, let retry):
                fields["what"] = .string("lost")
                fields["reason"] = .string(reason)
                fields["retry"] = .number(retry.seconds, places: 0)
            case .failing(let reason):
                fields["what"] = .string("failing")
                fields["reason"] = .string(reason)
            case .dropped(let pictures):
                fields["what"] = .string("dropped")
                fields["pictures"] = .number(Double(pictures), places: 0)
            }
            return JSONValue.object(fields).text
        case .sound(let alert):
            var fields: [String: JSONValue] = ["event": "sound", "microphone": .string(alert.microphone), "what": .string(alert.kind.rawValue),
                                               "time": .number(alert.at.seconds, places: 3)]
            // Where a clip was heard: as the device gives the sound, or as it is recorded.
            if alert.kind == .clipping { fields["where"] = .string(alert.atInput ? "source" : "recorded") }
            return JSONValue.object(fields).text
        case .upload(let report):
            var fields: [String: JSONValue] = ["event": "upload", "file": .string(report.file)]
            switch report.kind {
            case .done(let seconds):
                fields["what"] = "done"
                fields["seconds"] = .number(seconds, places: 1)
            case .failed(let attempt, let reason, let retry):
                fields["what"] = "failed"
                fields["attempt"] = .integer(attempt)
                fields["reason"] = .string(reason)
                fields["retry-in"] = .number(retry.seconds, places: 1)
            case .gone:
                fields["what"] = "gone"
            }
            return JSONValue.object(fields).text
        case .marker(let marker):
            return JSONValue.object(["event": "marker", "title": .string(marker.title), "time": .number(marker.time.seconds, places: 3)]).text
        case .paused(let time):
            return JSONValue.object(["event": "paused", "time": .number(time.seconds, places: 3)]).text
        case .resumed(let time, let length):
            return JSONValue.object(["event": "resumed", "time": .number(time.seconds, places: 3), "paused": .number(length.seconds, places: 3)]).text
        default: return nil
        }
    }
}
