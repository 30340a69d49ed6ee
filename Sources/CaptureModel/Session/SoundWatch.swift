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
    public mutating func observe(_ level: SoundLevel, of microphone: String, at time: Duration) -> SoundAlert? {
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
        if level.peak >= Self.clippingPeak {
            if lastClip[microphone].map({ time - $0 >= Self.clippingHold }) ?? true {
                alert = SoundAlert(microphone: microphone, kind: .clipping, at: time)
            }
            lastClip[microphone] = time
        }
        return alert
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

    public init(microphone: String, kind: Kind, at: Duration) {
        self.microphone = microphone
        self.kind = kind
        self.at = at
    }

    /// One line for a person.
    public var text: String {
        switch kind {
        case .clipping: "\(microphone) clips: its sound reached full scale; lower its gain, or set a limiter"
        case .silent: "\(microphone) has been silent (under \(Int(SoundWatch.silentLevel)) dBFS) for \(Int(SoundWatch.silentFor.components.seconds)) s: is it muted or unplugged?"
        case .heard: "\(microphone) is heard again"
        }
    }
}
