/// A microphone's entry's sound keys: its processing (`SoundProcessing`), and what a synthetic one adds
/// to its sound.
enum SoundDescription {
    static let keys = ["gain", "high-pass", "noise-suppression", "limiter", "offset", "track"]

    static func read(_ fields: [String: YAMLReader], spec: PipelineDescription.DeviceSpec, into entry: inout PipelineDescription.Entry) throws {
        if let gain = fields["gain"] { entry.sound.gain = try gain.double(in: SoundProcessing.gainRange) }
        if let cut = fields["high-pass"] { entry.sound.highPass = try cut.double(in: SoundProcessing.highPassRange) }
        if let level = fields["noise-suppression"] {
            // YAML reads a bare `off` as false.
            entry.sound.noiseSuppression = (try? level.bool()) == false ? .off : try level.choice(SoundProcessing.NoiseSuppression.self)
        }
        if let ceiling = fields["limiter"] { entry.sound.limiter = try ceiling.double(in: SoundProcessing.limiterRange) }
        if let offset = fields["offset"] { entry.sound.offset = try offset.duration(in: SoundProcessing.offsetRange, bare: .milliseconds) }
        if let track = fields["track"] { entry.sound.ownTrack = try track.choice(SoundProcessing.OwnTrack.self) }
        if let noise = fields["noise"] {
            switch spec {
            case .syntheticMicrophone, .syncMicrophone: entry.addedNoise = try noise.double(in: -80...0)
            default: throw noise.error("'noise' applies to a synthetic microphone only")
            }
        }
        if let delay = fields["delay"] {
            guard case .syncMicrophone = spec else { throw delay.error("'delay' applies to the sync microphone (synthetic: sync) only") }
            entry.beepDelay = try delay.duration(in: .zero ... .milliseconds(900), bare: .milliseconds)
        }
    }
}
