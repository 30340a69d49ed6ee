import CaptureModel
import GStreamer

/// The mode each camera is captured in: the size where it is shown (or whole, for its own track, a photo
/// or a data output), at one rate shared by the cameras composed together, and under a throttle rung a
/// share of that size. Decided before anything is added to the graph.
struct CaptureModes {
    let configuration: SessionConfiguration

    /// Modes for every connected camera, at one rate: cameras composed into one picture share a frame
    /// rate, as in a multi-camera session; it is the highest all of them reach, up to the configured rate.
    func choose(composed: (main: Connection, inset: Connection?)?, regions: (main: Region, inset: Region)) -> (modes: [String: CaptureMode], rate: Double) {
        let cameras = configuration.inputs.filter(\.device.isCamera).compactMap { input -> (DeviceInput, [Connection])? in
            let connections = configuration.connections.filter { $0.inputPorts.contains(input.port) }
            return connections.isEmpty ? nil : (input, connections)
        }
        func modes(at rate: Double) -> [String: CaptureMode] {
            Dictionary(uniqueKeysWithValues: cameras.map { input, connections in
                (input.id, captureMode(for: input, connections: connections, composed: composed, regions: regions,
                                       isolated: configuration.isIsolated(connections), rate: rate))
            })
        }
        let target = configuration.effectiveFrameRate
        let first = modes(at: target)
        let common = min(target, first.values.map(\.frameRate).min() ?? target)
        return common < target - 0.01 ? (modes(at: common), common) : (first, target)
    }

    /// The cameras' modes under a throttle rung: the main and inset cameras captured at a share of
    /// their size, every camera at no more than the rung's rate. The picture keeps its size and rate
    /// (the compositor scales, the encoder skips pictures), so the change is live.
    func throttled(_ modes: [String: CaptureMode], by settings: ThrottleSettings,
                           composed: (main: Connection, inset: Connection?)?) -> [String: CaptureMode] {
        modes.reduce(into: [:]) { result, entry in
            let (inputID, mode) = entry
            // A camera with a track of its own keeps its mode: the track's encoder and the file would have
            // to renegotiate. The picture's lower rate applies all the same, before its encoder. A network
            // camera sends the size it sends: its caps filter asks only for a rate.
            guard let input = configuration.input(inputID), !input.device.isNetworkCamera,
                  input.activeFormat == nil || input.device.formats.isEmpty,
                  !configuration.isIsolated(configuration.connections.filter { $0.inputPorts.contains(input.port) }) else {
                result[inputID] = mode
                return
            }
            let scale = composed?.main.inputPorts.first?.inputID == inputID ? settings.mainScale
                : composed?.inset?.inputPorts.first?.inputID == inputID ? settings.insetScale : 1
            let size = ThrottleSettings.scaled(width: mode.width, height: mode.height, by: scale)
            let rate = min(mode.frameRate, settings.frameRate)
            result[inputID] = FormatChooser.choose(for: input.device, width: size.width, height: size.height, frameRate: rate)
        }
    }

    /// The size each camera must deliver: where it is shown, the whole picture for an isolated track or a
    /// photo, or the size a data output asks for; an explicit active format always wins.
    private func captureMode(for input: DeviceInput, connections: [Connection], composed: (main: Connection, inset: Connection?)?,
                             regions: (main: Region, inset: Region), isolated: Bool, rate target: Double) -> CaptureMode {
        let rate = input.activeFrameRate ?? target
        if let format = input.activeFormat {
            // A format given without a rate runs at the session's, or the one the device offers at that size
            // that serves it best.
            let offered = input.device.formats.first { $0.width == format.width && $0.height == format.height && $0.pixelFormat == format.pixelFormat }?.frameRates ?? []
            let nearest = FormatChooser.rate(among: offered, target: target) ?? target
            return CaptureMode(pixelFormat: input.device.formats.isEmpty ? nil : format.pixelFormat, width: format.width, height: format.height,
                               frameRate: input.activeFrameRate ?? (format.frameRates.isEmpty ? nearest : format.maxFrameRate))
        }
        let full = configuration.preset.outputSize
        var needed = (width: 0, height: 0)
        let recorded = connections.contains { $0.outputID == configuration.movieFile?.id }
        for connection in connections {
            var size = full
            let shown = connection == composed?.main ? regions.main : connection == composed?.inset ? regions.inset : nil
            if let shown, !isolated { size = (shown.width, shown.height) }
            if let shown = PreviewPart(configuration: configuration).region(of: connection) { size = (shown.width, shown.height) }
            if connection.outputID == configuration.photoOutput?.id { size = full }
            if let tap = configuration.videoDataOutputs.first(where: { $0.id == connection.outputID }) {
                // A tap takes what the camera captures for the picture, or the size it asks for.
                guard let wanted = tap.size ?? (recorded ? nil : PixelSize(width: full.0, height: full.1)) else { continue }
                size = (wanted.width, wanted.height)
            }
            if connection.rotation.isQuarterTurn { size = (size.1, size.0) }
            needed = (max(needed.width, size.0), max(needed.height, size.1))
        }
        return FormatChooser.choose(for: input.device, width: needed.width, height: needed.height, frameRate: rate)
    }
}

extension SessionConfiguration {
    /// Whether a camera with these connections has a track of its own in the file, beside the picture.
    func isIsolated(_ connections: [Connection]) -> Bool {
        guard let movie = movieFile, movie.isolatedCameraTracks, movie.writesFile else { return false }
        return connections.contains { $0.outputID == movie.id }
    }
}
