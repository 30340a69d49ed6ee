/// What a configuration costs the machine, as AVCaptureMultiCamSession's `hardwareCost`: 0 is free,
/// 1 is all the machine can give, above 1 the session cannot run as configured.
///
/// Each part is a limit of its own (a USB bus's bandwidth, the CPU's time), and a session needs every
/// one of them, so the total is the largest part, not their sum: a bus at 0.9 and the CPU at 0.9 run.
public struct HardwareCost: Sendable {
    /// The cameras on one USB bus and the share of its usable bandwidth they take.
    public struct BusPart: Sendable {
        public var bus: UsbBus
        /// Each camera on the bus with the Mbit/s it sends.
        public var cameras: [(load: CameraLoad, bandwidth: Double)]
        public var bandwidth: Double { cameras.reduce(0) { $0 + $1.bandwidth } }
        public var share: Double { bandwidth / bus.usable }
    }

    /// One kind of picture work and the share of the usable CPU it takes.
    public struct Stage: Sendable {
        public enum Kind: String, Sendable, CaseIterable {
            case generate = "draw test patterns"
            case decode = "decode"
            case composite = "composite"
            case encode = "encode"
        }

        public var kind: Kind
        /// Pixels per second the stage handles.
        public var pixelRate: Double
        /// Seconds of one core's time per second of recording.
        public var coreSeconds: Double
        public var share: Double
        /// What the stage works on, e.g. "front MJPG 1280x720 @ 30".
        public var subjects: [String]
    }

    public var buses: [BusPart]
    public var stages: [Stage]
    /// Cameras on a V4L2 device whose bus is unknown (not USB, or sysfs unreadable): not counted on any bus.
    public var camerasOffBus: [String]
    public var budget: PixelBudget

    /// The share of the usable CPU time the graph's picture work takes.
    public var cpuShare: Double { stages.reduce(0) { $0 + $1.share } }

    public var total: Double { max(cpuShare, buses.map(\.share).max() ?? 0) }

    public var isOverBudget: Bool { total > 1 }

    /// The parts over budget, fullest first.
    public var overBudgetBuses: [BusPart] { buses.filter { $0.share > 1 }.sorted { $0.share > $1.share } }
    public var isCPUOverBudget: Bool { cpuShare > 1 }

    /// Computes the cost from plain values: the cameras with the modes they were given, the composed
    /// picture (nil when nothing is composed), which bus each camera sits on (by input id), and the
    /// machine's pixel rates.
    /// `liveView` is the web page's live picture (its size and rate) while watched: composed at its size
    /// and JPEG-encoded, counted at the composite's and the encoder's rates (JPEG costs less than H.264
    /// per pixel, so this errs on the safe side).
    public init(cameras: [CameraLoad], picture: PictureLoad?, liveView: (size: PixelSize, frameRate: Double)? = nil, buses: [String: UsbBus], budget: PixelBudget) {
        self.budget = budget
        var parts: [UsbBus: [(CameraLoad, Double)]] = [:]
        var off: [String] = []
        for camera in cameras where camera.origin == .device {
            if let bus = buses[camera.inputID] {
                parts[bus, default: []].append((camera, camera.bandwidth))
            } else {
                off.append(camera.inputID)
            }
        }
        self.buses = parts.map { BusPart(bus: $0.key, cameras: $0.value) }.sorted { $0.bus.id < $1.bus.id }
        camerasOffBus = off

        let usableCores = Double(max(1, budget.cores)) * PixelBudget.usableShare
        func stage(_ kind: Stage.Kind, _ items: [(String, Double)], rate: Double) -> Stage {
            let pixels = items.reduce(0) { $0 + $1.1 }
            let coreSeconds = rate > 0 ? pixels / rate : 0
            return Stage(kind: kind, pixelRate: pixels, coreSeconds: coreSeconds, share: coreSeconds / usableCores, subjects: items.map(\.0))
        }
        func named(_ camera: CameraLoad) -> (String, Double) { ("\(camera.inputID) \(camera.modeText)", camera.pixelRate) }
        let encodedCameras = (picture?.softwareEncoded ?? true) ? cameras.filter(\.encodedAlone) : []
        let pictureItem = picture.map { ("picture \($0.width)x\($0.height) @ \(VideoFormat.rateText($0.frameRate))", $0.pixelRate) }
        let liveItems = liveView.map { [("live view \($0.size) @ \(VideoFormat.rateText($0.frameRate))", Double($0.size.width * $0.size.height) * $0.frameRate)] } ?? []
        stages = [
            stage(.generate, cameras.filter { $0.origin == .synthetic }.map(named), rate: budget.generate),
            stage(.decode, cameras.filter { [.file, .network].contains($0.origin) || ($0.origin == .device && $0.isMJPEG) }.map(named), rate: budget.decode),
            stage(.composite, (picture == nil ? [] : cameras.filter { $0.origin != .synthetic }.map(named) + [pictureItem!]) + liveItems, rate: budget.composite),
            stage(.encode, (picture?.softwareEncoded == true ? [pictureItem!] + picture!.streamItems : []) + encodedCameras.map(named) + liveItems, rate: budget.encode),
        ]
    }
}
