import Foundation

/// A chapter mark in a recording (`pipcam`'s `m` key, the `marker` command): a title, and where it falls
/// in the file, in the file's own time (what a player shows; pauses are not in it). Written into the file
/// as a Matroska chapter when it is ended, and kept beside it until then (`MarkerJournal`), so a crash
/// loses none.
public struct Marker: Sendable, Equatable, Codable {
    /// At most this many characters, and `longestTitleBytes` bytes: MP4's chapter list gives a title 255.
    public static let longestTitle = 60
    public static let longestTitleBytes = 240

    public let title: String
    public let time: Duration

    public init(title: String, time: Duration) {
        self.title = title
        self.time = time
    }

    /// The title a user gave, as it is kept: plain text on one line, each control character a space;
    /// none (or only spaces) is "Marker N". Too long a title is refused, never cut.
    public static func title(_ given: String?, number: Int) throws -> String {
        // Control characters, line and paragraph separators, and the marks that turn text right to left.
        let breaking: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
        let turning: ClosedRange<UInt32> = 0x202A...0x202E, isolating: ClosedRange<UInt32> = 0x2066...0x2069
        let plain = String(String.UnicodeScalarView((given ?? "").unicodeScalars.map { scalar in
            breaking.contains(scalar.properties.generalCategory) || turning.contains(scalar.value) || isolating.contains(scalar.value) ? " " : scalar
        })).trimmingCharacters(in: .whitespaces)
        guard !plain.isEmpty else { return "Marker \(number)" }
        guard plain.count <= longestTitle else {
            throw CaptureError.invalidConfiguration("a marker's title is at most \(longestTitle) characters (this one has \(plain.count))")
        }
        guard plain.utf8.count <= longestTitleBytes else {
            throw CaptureError.invalidConfiguration("a marker's title is at most \(longestTitleBytes) bytes of UTF-8 (this one has \(plain.utf8.count))")
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
