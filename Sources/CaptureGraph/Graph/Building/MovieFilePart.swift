import CaptureModel
import GStreamer

/// The movie file's part of the graph: each camera into the picture (and into a track of its own when
/// isolated), each microphone into the mix (and a track of its own), the picture and the mix encoded,
/// and every track into the file or its parts, in order: picture, mix, microphones, isolated cameras.
struct MovieFilePart {
    let configuration: SessionConfiguration
    let movie: MovieFileOutput
    private var video: [String] = [], sound: [String] = [], isolated: [String] = []
    /// Each track's name, by the element that feeds the muxer.
    private var titles: [String: String] = [:]
    private var mixerInputs = 0

    init(configuration: SessionConfiguration, movie: MovieFileOutput) {
        self.configuration = configuration
        self.movie = movie
    }

    /// Links a camera's connection into its region of the picture, through a track of its own when
    /// isolated. Returns the compositor and its pad, where the camera's delivered frames are counted.
    mutating func addCamera(_ input: DeviceInput, branch: String, after flip: String, mode: CaptureMode, region: Region,
                            isolated isIsolated: Bool, to plan: inout GraphPlan) -> (String, String) {
        let compositor = ProgramStage.compositor(&plan)
        let pad = "sink_\(plan.inputs.filter { $0.compositorPad != nil }.count)"
        plan[input: input.id].compositorPad = pad
        var toPicture = flip
        if isIsolated {
            // The camera's own track shares the connection's switch and flip, at the captured size.
            toPicture = plan.add("\(branch)-picture-queue", .queue, GraphBuilder.leakyQueue(buffers: GraphBuilder.cameraQueueFrames))
            let trackQueue = plan.add("\(branch)-track-queue", .queue, GraphBuilder.leakyQueue(buffers: GraphBuilder.cameraQueueFrames))
            plan.fanOut(from: flip, to: [toPicture, trackQueue], tee: "\(branch)-tee")
            let convert = plan.add("\(branch)-track-convert", .videoconvert)
            let caps = plan.add("\(branch)-track-caps", .capsfilter, [("caps", .caps(GraphCaps.picture()))])
            let encoded = Encoders.addVideo(movie, prefix: "\(branch)-track", bitrate: bitrate(for: mode), rate: mode.frameRate, to: &plan)
            plan.chain([trackQueue, convert, caps, encoded.first])
            isolated.append(encoded.last)
            plan.isolatedEncoders.append(ElementHandle(encoded.first))
            plan.trackGrids[ElementHandle(caps)] = mode.frameRate
            titles[encoded.last] = input.label
        }
        plan.link(toPicture, to: compositor, pad, padProperties: ProgramStage.padProperties(region))
        return (compositor, pad)
    }

    /// The composed picture, encoded once by the program stage: the file's first track.
    mutating func addPicture(size: (width: Int, height: Int), rate: Double, to plan: inout GraphPlan) {
        guard let encoded = ProgramStage.addPicture(movie, size: size, rate: rate, configuration: configuration, to: &plan) else { return }
        // Live photos are cut from the encoded picture even when it is not written.
        if movie.writesFile { video.append(encoded) } else { plan.link(encoded, to: plan.addDiscard("picture-discard")) }
        let shown = configuration.movieConnections(.video).compactMap { configuration.input($0.inputPorts[0].inputID)?.label }
        titles[encoded] = "Picture" + (shown.isEmpty ? "" : ": " + shown.joined(separator: " + "))
    }

    /// Whether each microphone has a track of its own beside the mix.
    var hasOwnTracks: Bool { movie.writesFile && movie.audioTracks == .mixedAndSeparate && configuration.movieConnections(.audio).count > 1 }

    /// Links a microphone's connection into the mix, and into a track of its own when each microphone
    /// has one: from `raw`, the sound before its processing, when given. Both take the microphone's
    /// offset where they join their mixer.
    mutating func addMicrophone(_ input: DeviceInput, branch: String, after valve: String, raw: String?, to plan: inout GraphPlan) {
        let mixer = ProgramStage.mixer(&plan)
        var toMix = valve
        let offset = .zero - input.sound.offset
        if hasOwnTracks {
            // The microphone's own track shares the connection's switch. A one-input mixer keeps
            // it going at the clock's pace, with silence if the microphone stops delivering;
            // without it one stalled microphone would stall the muxer, and every track with it.
            let queue = GraphBuilder.leakyQueue(buffers: GraphBuilder.microphoneQueueBuffers)
            let trackQueue: String
            if let raw {
                trackQueue = raw
            } else {
                toMix = plan.add("\(branch)-mix-queue", .queue, queue)
                trackQueue = plan.add("\(branch)-track-queue", .queue, queue)
                plan.fanOut(from: valve, to: [toMix, trackQueue], tee: "\(branch)-tee")
            }
            plan[input: input.id].soundJoins.append(ElementHandle(trackQueue))
            let pace = plan.add("\(branch)-track-pace", .audiomixer, ProgramStage.mixerLatency(plan))
            plan.link(trackQueue, to: pace, "sink_0", timeOffset: offset)
            let encoded = Encoders.addSound(movie, prefix: "\(branch)-track", after: pace, to: &plan)
            sound.append(encoded.last)
            titles[encoded.last] = input.label
        }
        plan[input: input.id].soundJoins.append(ElementHandle(toMix))
        plan.link(toMix, to: mixer, "sink_\(mixerInputs)", padProperties: [("mute", .bool(isMutedInMix(input.id)))], timeOffset: offset)
        mixerInputs += 1
    }

    /// The mixed sound, encoded once by the program stage: the file's first sound track.
    mutating func addMix(to plan: inout GraphPlan) {
        guard let encoded = ProgramStage.addMix(movie, configuration: configuration, to: &plan) else { return }
        sound.insert(encoded, at: 0)
        let heard = configuration.movieConnections(.audio).compactMap { configuration.input($0.inputPorts[0].inputID)?.label }
        titles[encoded] = heard.count == 1 ? heard[0] : "Mix"
    }

    /// The file, or its parts, with the tracks in order (picture, mix, microphones, isolated cameras).
    func addWriter(to plan: inout GraphPlan) {
        guard movie.writesFile else { return }
        let mux: String
        if let segmenting = movie.segmenting {
            mux = addPartsWriter(movie.path, segmenting, &plan)
        } else {
            mux = plan.add("mux", .matroskamux, [("writing-app", .string("pipcam"))])
            // Unbuffered: what the muxer writes reaches the system at once, where a crash of pipcam cannot
            // take it, and the file's sync every second (`FileInProgress`) takes it to the disk.
            let file = plan.add("file", .filesink, [("location", .string(movie.path)), ("buffer-mode", .string("unbuffered"))])
            plan.fileSink = ElementHandle(file)
            plan.link(mux, to: file)
        }
        plan.mux = ElementHandle(mux)
        var videoIndex = 0, audioIndex = 0
        for source in video + sound + isolated {
            let isAudio = sound.contains(source)
            // The parts' writer cuts at its "video" track's key frames; it names the other video pads
            // after its muxer's ("video_1"), but they are asked for by its own template.
            let inParts = movie.segmenting != nil
            let pad = isAudio ? "audio_\(audioIndex)" : inParts && videoIndex == 0 ? "video" : "video_\(videoIndex)"
            let asked = inParts && !isAudio && videoIndex > 0 ? "video_aux_\(videoIndex - 1)" : pad
            if isAudio { audioIndex += 1 } else { videoIndex += 1 }
            plan.link(source, to: mux, asked)
            let isDefault = source == video.first || source == sound.first
            plan.muxTracks.append(.init(pad: pad, title: titles[source] ?? "", isDefault: isDefault))
        }
    }

    /// A recording in parts (see `Segmenting`): splitmuxsink cuts at the picture's key frames, asking the
    /// picture's encoder for one when a part is due (`RunningGraph` passes the request on to the cameras'
    /// own encoders). It holds each group of pictures until the next key frame, so the picture has one
    /// every second (not two): what a crash can take stays within the two seconds the single file keeps.
    /// Each part gets a muxer and a file writer of its own, set up as the single file's, and is named as
    /// it begins (`RecordingParts`).
    private func addPartsWriter(_ path: String, _ segmenting: Segmenting, _ plan: inout GraphPlan) -> String {
        var properties: [(String, PropertyValue)] = [
            ("location", .string(path)), ("async-finalize", .bool(true)), ("send-keyframe-requests", .bool(true)),
            ("muxer-factory", .string(ElementFactory.matroskamux.rawValue)), ("muxer-properties", .string("properties,writing-app=pipcam")),
            // buffer-mode 2 is unbuffered (see the single file's writer).
            ("sink-factory", .string(ElementFactory.filesink.rawValue)), ("sink-properties", .string("properties,buffer-mode=2")),
        ]
        if let time = segmenting.time { properties.append(("max-size-time", .uint(UInt64(time.seconds * 1e9)))) }
        if let bytes = segmenting.bytes { properties.append(("max-size-bytes", .uint(UInt64(bytes)))) }
        return plan.add("mux", .splitmuxsink, properties)
    }

    /// With audio following the main camera, only the microphone paired with it (same position in the
    /// list of connections) is heard.
    private func isMutedInMix(_ microphoneID: String) -> Bool {
        guard movie.audioTracks == .followMainCamera, let main = configuration.composedCameras()?.main else { return false }
        let cameras = configuration.movieConnections(.video).map { $0.inputPorts[0].inputID }
        let microphones = configuration.movieConnections(.audio).map { $0.inputPorts[0].inputID }
        guard let cameraIndex = cameras.firstIndex(of: main.inputPorts[0].inputID), cameraIndex < microphones.count else { return false }
        return microphones[cameraIndex] != microphoneID
    }

    /// Isolated tracks get a bitrate in proportion to their pixels (the preset's rate is for its size).
    private func bitrate(for mode: CaptureMode) -> Int {
        let (width, height) = configuration.preset.outputSize
        let base = movie.videoBitrate ?? configuration.preset.videoBitrate
        return max(300, Int(Double(base) * Double(mode.width * mode.height) / Double(width * height)))
    }
}
