/// Two cameras kept alike (seed 001 §4: a cut between two angles must not jump in brightness or colour):
/// the follower's controls are written to the leader's values while these change. The leader's own
/// automatic modes go on deciding; the follower's are turned off, so its values are the leader's.
public enum ControlMatch {
    /// The writes that bring the follower to the leader now, for each name (`ControlSettings`'s names,
    /// or a V4L2 name) both cameras have: nothing when they are alike already.
    public static func steps(for names: [String], leader: [CameraControl], follower: [CameraControl]) -> [ControlSettings.Step] {
        var switches: [ControlSettings.Step] = []
        var values: [ControlSettings.Step] = []
        for name in names {
            guard let source = ControlSettings.control(named: name, in: leader), let value = source.value,
                  let target = ControlSettings.control(named: name, in: follower), !target.readOnly else { continue }
            if let automatic = ControlSettings.automaticControl(named: name, in: follower),
               let off = ControlSettings.automaticValue(automatic, on: false), automatic.value != off {
                switches.append(.init(control: automatic, value: .fixed(off)))
            }
            // The follower's range and step may differ from the leader's: the nearest value it takes.
            let clamped = min(target.maximum, max(target.minimum, value))
            let stepped = target.minimum + ((clamped - target.minimum) + target.step / 2) / target.step * target.step
            let wanted = min(target.maximum, stepped)
            if target.value != wanted { values.append(.init(control: target, value: .fixed(wanted))) }
        }
        return switches + values
    }
}
