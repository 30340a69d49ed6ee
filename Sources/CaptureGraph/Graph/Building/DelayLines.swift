import CaptureModel
import GStreamer

/// A network camera's `delay:` in the recording: its pictures and its sound are placed that much earlier
/// than they arrive, where its branch into the movie file begins, and every other input's branch into
/// the file holds what it takes as long (a queue that lets nothing go before it has that much), so that
/// all of them reach the picture and the mix together, the camera's in step with the rest. Only the file
/// waits: the preview, the data taps and the photos stay live.
enum DelayLines {
    /// How much earlier than they arrive an input's pictures or sound belong: a network camera's delay, or
    /// that of the camera whose sound a microphone takes.
    static func delay(of input: DeviceInput, in configuration: SessionConfiguration) -> Duration {
        switch input.device.source {
        case .network(let camera): camera.delay
        case .cameraSound(let camera): configuration.inputs.first { $0.id == camera }.map { delay(of: $0, in: configuration) } ?? .zero
        case .v4l2, .alsa, .testPattern, .tone, .syncBeeps, .soundServer, .file, .pipewire, .screen, .screencast: .zero
        }
    }

    /// The longest delay of the session's inputs (`GraphPlan.placedEarlier`).
    static func longest(in configuration: SessionConfiguration) -> Duration {
        configuration.inputs.map { delay(of: $0, in: configuration) }.max() ?? .zero
    }

    /// The queue an input's branch begins with. Into another output than the file, or with no input
    /// delayed, it has `usual`'s properties. Else it holds the longest delay less the input's own, a
    /// second more before it lets the oldest go, and what leaves it is placed earlier by the input's own
    /// delay (`Pad.placeEarlier`).
    static func addQueue(_ name: String, carrying input: DeviceInput, intoFile: Bool, usual: [(String, PropertyValue)],
                         _ configuration: SessionConfiguration, to plan: inout GraphPlan) -> String {
        guard intoFile, plan.placedEarlier > .zero else { return plan.add(name, .queue, usual) }
        let own = delay(of: input, in: configuration)
        let held = plan.placedEarlier - own
        let queue = plan.add(name, .queue, [
            ("leaky", .string("downstream")), ("max-size-buffers", .uint(0)), ("max-size-bytes", .uint(0)),
            ("max-size-time", clockTime(held + .seconds(1))), ("min-threshold-time", clockTime(held)),
        ])
        if own > .zero { plan.placedEarlierPads[queue] = own }
        return queue
    }

    /// The pictures a camera's branch into the file holds back, for the frame counts (`CameraTaps.framesOnTheWay`).
    static func heldFrames(of input: DeviceInput, rate: Double, _ configuration: SessionConfiguration, plan: GraphPlan) -> Int {
        guard plan.placedEarlier > .zero else { return 0 }
        return Int(((plan.placedEarlier - delay(of: input, in: configuration)).seconds * rate).rounded(.up)) + 1
    }

    /// A duration as a property in nanoseconds.
    static func clockTime(_ duration: Duration) -> PropertyValue {
        .uint(UInt64((max(.zero, duration).seconds * 1e9).rounded()))
    }
}
