import Foundation

/// A stream read from its description section, `output.streams:`: the recording sent live, each stream a
/// mapping:
///
///     streams:
///       - name: youtube
///         url: rtmp://a.rtmp.youtube.com/live2
///         key-env: PIPCAM_STREAM_KEY     # the key from the environment: the file can be shared
///       - name: overflow
///         url: srt://192.0.2.5:9000
///         passphrase-env: PIPCAM_SRT_PASSPHRASE   # SRT's passphrase from the environment
///         bitrate: 2000                  # a picture of its own (kbit/s), and its size
///         size: 1280x720
///         required: true                 # a stream that cannot start stops the recording's start
///       - name: web
///         hls: /var/www/live
extension StreamOutput {
    static let descriptionKeys = ["name", "url", "hls", "key-env", "passphrase-env", "bitrate", "size", "required"]

    /// The streams `reader` (the `streams:` sequence) describes, each named once.
    static func streams(describedBy reader: YAMLReader) throws -> [StreamOutput] {
        var names = Set<String>()
        return try reader.sequence().map { entry in
            let stream = try stream(entry)
            guard names.insert(stream.name).inserted else { throw entry.error("stream '\(stream.name)': another stream has the same name") }
            return stream
        }
    }

    private static func stream(_ entry: YAMLReader) throws -> StreamOutput {
        let fields = try entry.mapping(allowed: descriptionKeys)
        guard let nameField = fields["name"] else { throw entry.error("each stream has a name (name: youtube)") }
        let name = try nameField.string()
        guard !name.isEmpty, name.count <= SessionLimits.nameLength, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw nameField.error("a stream's name is letters, digits, - and _ (at most \(SessionLimits.nameLength))")
        }
        let key = try secret(fields["key-env"], of: name, what: "stream key")
        let passphrase = try secret(fields["passphrase-env"], of: name, what: "passphrase")
        var stream: StreamOutput
        switch (fields["url"], fields["hls"]) {
        case (let url?, nil):
            do { stream = try StreamOutput(name: name, address: try url.string(), key: key, passphrase: passphrase) } catch let problem as StreamProblem {
                throw url.error(CaptureError.streamOutput(name: name, problem).description)
            }
        case (nil, let folder?):
            let text = try folder.string()
            guard !text.isEmpty else { throw folder.error("stream '\(name)': hls needs a folder") }
            stream = StreamOutput(name: name, destination: .hls(folder: text))
        default:
            throw entry.error("stream '\(name)' has either url (srt://…, rtmp://…) or hls (a folder)")
        }
        if let bitrate = fields["bitrate"] { stream.videoBitrate = try bitrate.int(in: SessionLimits.videoBitrate) }
        if let size = fields["size"] {
            let parts = try size.string().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, case let chosen = StreamOutput.Size(width: parts[0], height: parts[1]), chosen.isValid else {
                throw size.error("a stream's size is even WIDTHxHEIGHT, like 1280x720")
            }
            stream.size = chosen
        }
        if let required = fields["required"] { stream.required = try required.bool() }
        return stream
    }

    /// A stream's secret from the environment variable a `…-env` key names; refused when it is not set.
    private static func secret(_ field: YAMLReader?, of name: String, what: String) throws -> String? {
        guard let field else { return nil }
        let variable = try field.string()
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
            throw field.error(CaptureError.streamOutput(name: name, .secretMissing(what, variable: variable)).description)
        }
        return value
    }
}
