/// Watches each microphone's meter for what a person recording would want to hear about at once: sound
/// that clips, and a microphone that stays silent (a muted headset, a cable out). Fed ten readings a
/// second (`SoundLevel`); says each once, not at every reading.
public struct SoundWatch: Sendable {
    /// A peak at or over this (dBFS) is taken as clipped: the loudest a sample can be, within rounding.
    public static let clippingPeak = -0.1
    /// Loudness (RMS, dBFS) under which a microphone is taken as silent: quieter than any room.
    public static let silentLevel = -60.0
    /// How long a microphone stays silent before it is said.
    public static let silentFor = Duration.seconds(10)
    /// How long a clipping microphone stays marked, and must stay clean before clipping is said again.
    public static let clippingHold = Duration.seconds(3)

    private var lastClip: [String: Duration] = [:]
    private var quietSince: [String: Duration] = [:]
    private var silent: Set<String> = []

    public init() {}

    /// The alert a reading brings, if any. A silent microphone that comes back clipping is said to clip.
    /// `atInput`: the reading is of the sound as the device gives it, before the microphone's stages (a
    /// microphone turned down by its gain or held by a limiter may still clip at its source), and only
    /// its clipping counts; else of the sound as it is recorded.
    public mutating func observe(_ level: SoundLevel, of microphone: String, at time: Duration, atInput: Bool = false) -> SoundAlert? {
        if atInput { return clipping(level, of: microphone, at: time, atInput: true) }
        var alert: SoundAlert?
        if level.rms < Self.silentLevel {
            let since = quietSince[microphone] ?? time
            quietSince[microphone] = since
            if time - since >= Self.silentFor, silent.insert(microphone).inserted {
                alert = SoundAlert(microphone: microphone, kind: .silent, at: time)
            }
        } else {
            quietSince[microphone] = nil
            if silent.remove(microphone) != nil { alert = SoundAlert(microphone: microphone, kind: .heard, at: time) }
        }
        return clipping(level, of: microphone, at: time, atInput: false) ?? alert
    }

    /// Clipping, said when the microphone has not clipped (at its source or as recorded) for the hold.
    private mutating func clipping(_ level: SoundLevel, of microphone: String, at time: Duration, atInput: Bool) -> SoundAlert? {
        guard level.peak >= Self.clippingPeak else { return nil }
        defer { lastClip[microphone] = time }
        guard lastClip[microphone].map({ time - $0 >= Self.clippingHold }) ?? true else { return nil }
        return SoundAlert(microphone: microphone, kind: .clipping, at: time, atInput: atInput)
    }

    /// What stands for each microphone now, for the status: "clipping" within the hold, "silent".
    public func states(at time: Duration) -> [String: String] {
        var states: [String: String] = [:]
        for microphone in silent { states[microphone] = SoundAlert.Kind.silent.rawValue }
        for (microphone, clip) in lastClip where time - clip < Self.clippingHold { states[microphone] = SoundAlert.Kind.clipping.rawValue }
        return states
    }
}

/// Something a microphone's sound needs looked at, at this recording time.
public struct SoundAlert: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The sound reached full scale: what passed it is lost.
        case clipping
        /// Under `SoundWatch.silentLevel` for `SoundWatch.silentFor`.
        case silent
        /// A silent microphone is heard again.
        case heard
    }

    public let microphone: String
    public let kind: Kind
    public let at: Duration
    /// Clipping as the device gives the sound, before pipcam's stages: only the device's own level helps.
    public let atInput: Bool

    public init(microphone: String, kind: Kind, at: Duration, atInput: Bool = false) {
        self.microphone = microphone
        self.kind = kind
        self.at = at
        self.atInput = atInput
    }

    /// One line for a person.
    public var text: String {
        switch kind {
        case .clipping where atInput: "\(microphone) clips at its source: turn its input level down (the sound card's or the desktop's)"
        case .clipping: "\(microphone) clips: its sound reached full scale; lower its gain, or set a limiter"
        case .silent: "\(microphone) has been silent (under \(Int(SoundWatch.silentLevel)) dBFS) for \(Int(SoundWatch.silentFor.components.seconds)) s: is it muted or unplugged?"
        case .heard: "\(microphone) is heard again"
        }
    }
}
