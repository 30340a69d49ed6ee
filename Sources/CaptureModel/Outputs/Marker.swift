import Foundation

/// A chapter mark in a recording (`pipcam`'s `m` key, the `marker` command): a title, and where it falls
/// in the file, in the file's own time (what a player shows; pauses are not in it). Written into the file
/// as a Matroska chapter when it is ended, and kept beside it until then (`MarkerJournal`), so a crash
/// loses none.
public struct Marker: Sendable, Equatable, Codable {
    /// MP4's chapter list gives a title 255 bytes; a title of this many characters always fits.
    public static let longestTitle = 60

    public let title: String
    public let time: Duration

    public init(title: String, time: Duration) {
        self.title = title
        self.time = time
    }

    /// The title a user gave, as it is kept: plain text on one line, each control character a space;
    /// none (or only spaces) is "Marker N". Too long a title is refused, never cut.
    public static func title(_ given: String?, number: Int) throws -> String {
        let plain = String((given ?? "").unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        guard !plain.isEmpty else { return "Marker \(number)" }
        guard plain.count <= longestTitle else {
            throw CaptureError.invalidConfiguration("a marker's title is at most \(longestTitle) characters (this one has \(plain.count))")
        }
        return plain
    }

    private enum CodingKeys: String, CodingKey { case title, time }

    public init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        title = try fields.decode(String.self, forKey: .title)
        let seconds = try fields.decode(Double.self, forKey: .time)
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: fields, debugDescription: "not a time")
        }
        time = .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(title, forKey: .title)
        try fields.encode((time.seconds * 1e9).rounded() / 1e9, forKey: .time)
    }
}
