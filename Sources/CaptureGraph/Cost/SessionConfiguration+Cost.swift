import CaptureModel

extension SessionConfiguration {
    /// The hardware cost of this configuration: the modes its graph would ask of each camera, on the
    /// buses given (by input id), against the machine's pixel rates. Validates the configuration first.
    public func hardwareCost(buses: [String: UsbBus], budget: PixelBudget) throws -> HardwareCost {
        let (cameras, picture) = try costLoads()
        return HardwareCost(cameras: cameras, picture: picture, liveView: PreviewPictures.load(of: self), buses: buses, budget: budget)
    }

    /// What the graph plan asks of each camera, and the picture it composes and encodes.
    func costLoads() throws -> (cameras: [CameraLoad], picture: PictureLoad?) {
        let plan = try graphPlan()
        let cameras = inputs.compactMap { input -> CameraLoad? in
            guard let mode = plan.cameraModes[input.id] else { return nil }
            let origin = CameraLoad.Origin(input.device.source)
            let composed = movieConnections(.video).contains { $0.inputPorts.contains(input.port) }
            return CameraLoad(inputID: input.id, width: mode.width, height: mode.height, frameRate: mode.frameRate,
                              pixelFormat: mode.pixelFormat, origin: origin, encodedAlone: movieFile?.isolatedCameraTracks == true && composed)
        }
        let picture = plan.compositor.map { _ in
            PictureLoad(width: plan.outputSize.width, height: plan.outputSize.height, frameRate: plan.frameRate,
                        softwareEncoded: plan.pictureEncoder.flatMap { plan.node($0.name) }?.factory == .x264enc, streams: streams)
        }
        return (cameras, picture)
    }
}
