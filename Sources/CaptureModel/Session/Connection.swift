/// An explicit link from input ports to an output (`AVCaptureConnection`), with the per-link
/// transforms a camera needs: rotation, mirroring, and an on/off switch.
public struct Connection: Sendable, Hashable, Identifiable {
    public var inputPorts: [InputPort]
    public var outputID: String
    public var rotation: Rotation
    public var isVideoMirrored: Bool
    public var isEnabled: Bool

    public init(inputPorts: [InputPort], outputID: String, rotation: Rotation = .none,
                isVideoMirrored: Bool = false, isEnabled: Bool = true) {
        self.inputPorts = inputPorts
        self.outputID = outputID
        self.rotation = rotation
        self.isVideoMirrored = isVideoMirrored
        self.isEnabled = isEnabled
    }

    public init(from port: InputPort, to outputID: String, rotation: Rotation = .none, mirrored: Bool = false) {
        self.init(inputPorts: [port], outputID: outputID, rotation: rotation, isVideoMirrored: mirrored)
    }

    public var id: String { inputPorts.map(\.inputID).joined(separator: "+") + "->" + outputID }

    public var mediaType: MediaType { inputPorts.first?.mediaType ?? .video }

    /// Whether the picture needs a flip element at all.
    var needsTransform: Bool { rotation != .none || isVideoMirrored }

    /// The turn and mirror its picture gets: rotate first, then mirror the result left to right, as a
    /// viewer sees it.
    package var videoDirection: VideoDirection {
        switch (rotation, isVideoMirrored) {
        case (.none, false): return .identity
        case (.clockwise90, false): return .clockwise
        case (.upsideDown, false): return .halfTurn
        case (.counterclockwise90, false): return .counterclockwise
        case (.none, true): return .mirrored
        case (.clockwise90, true): return .clockwiseMirrored
        case (.upsideDown, true): return .upsideDownMirrored
        case (.counterclockwise90, true): return .counterclockwiseMirrored
        }
    }
}

/// The eight ways a picture can be turned and mirrored; each raw value is `videoflip`'s name for it.
package enum VideoDirection: String, Sendable, CaseIterable {
    case identity
    case clockwise = "90r"
    case halfTurn = "180"
    case counterclockwise = "90l"
    case mirrored = "horiz"
    /// Turned clockwise, then mirrored: the picture flipped about its upper-left to lower-right diagonal.
    case clockwiseMirrored = "ul-lr"
    case upsideDownMirrored = "vert"
    /// Turned counterclockwise, then mirrored: flipped about the upper-right to lower-left diagonal.
    case counterclockwiseMirrored = "ur-ll"

    /// Whether the picture's width and height trade places.
    package var swapsSides: Bool { [.clockwise, .counterclockwise, .clockwiseMirrored, .counterclockwiseMirrored].contains(self) }
}

/// Clockwise rotation applied to a camera's picture.
public enum Rotation: Int, Sendable, Codable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case counterclockwise90 = 270

    /// Whether width and height trade places.
    public var isQuarterTurn: Bool { self == .clockwise90 || self == .counterclockwise90 }
}
