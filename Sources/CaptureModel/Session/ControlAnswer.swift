/// A live command's answer, the one every way of sending commands gets (the control socket, the page's
/// WebSocket and `POST /api/command`): carried out, with the session's state and what the command adds,
/// or refused, with the reason. Whoever sends it on reads `isCarriedOut`, never the text.
public struct ControlAnswer: Sendable, Equatable {
    public let isCarriedOut: Bool
    /// The answer's fields, `ok` and `error` among them.
    public let fields: [String: JSONValue]

    /// Carried out: the state and what the command adds, with `"ok":true`.
    public static func carriedOut(_ fields: [String: JSONValue]) -> ControlAnswer {
        ControlAnswer(isCarriedOut: true, fields: fields.merging(["ok": .bool(true)]) { $1 })
    }

    /// Refused, and why: `{"ok":false,"error":"…"}`.
    public static func refused(_ reason: String) -> ControlAnswer {
        ControlAnswer(isCarriedOut: false, fields: ["ok": .bool(false), "error": .string(reason)])
    }

    /// The answer as one JSON line, without its newline.
    public var line: String { JSONValue.object(fields).text }
}

/// What carries out one line of a command and answers it: the one handler every way of sending commands
/// is given.
public typealias ControlHandler = @Sendable (String) async -> ControlAnswer
