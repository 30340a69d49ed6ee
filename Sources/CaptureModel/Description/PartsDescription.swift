/// The output's keys for what becomes of its files: `segment` (parts instead of one file), `keep` (the
/// oldest parts deleted) and `upload` (each finished file handed to a command).
enum PartsDescription {
    static let segmentKeys = ["time", "size"]

    static func read(_ fields: [String: YAMLReader], into description: inout PipelineDescription) throws {
        if let segment = fields["segment"] {
            let parts = try segment.mapping(allowed: segmentKeys)
            var segmenting = Segmenting()
            if let time = parts["time"] {
                guard let value = Segmenting.duration(try time.string()) else { throw time.error("a part's time is like 10m, 90s or 1h") }
                segmenting.time = value
            }
            if let size = parts["size"] {
                guard let value = Segmenting.bytes(try size.string()) else { throw size.error("a part's size is like 500MB or 2GB") }
                segmenting.bytes = value
            }
            do { description.segmenting = try segmenting.checked() } catch { throw segment.error("\(error)") }
        }
        if let keep = fields["keep"] {
            guard description.segmenting != nil else { throw keep.error("'keep' deletes the oldest parts: it needs 'segment'") }
            do { description.segmenting?.keep = try Segmenting.parse(keep: try keep.string()) } catch let error as SegmentingError { throw keep.error(error.description) }
        }
        if let upload = fields["upload"] {
            guard let command = try upload.mapping(allowed: ["command"])["command"] else {
                throw upload.error("upload needs a command: {command: \"rclone copyto {file} store:bucket/{host}/{name}\"}")
            }
            do { description.upload = try UploadCommand(try command.string()) } catch let error as CaptureError { throw command.error("\(error)") }
        }
    }
}
