/// The `cost:` and `throttle:` sections: what to do when a session costs more than the machine has,
/// and how a recording lightens itself under load.
extension DescriptionReader {
    static let costKeys = ["over-budget"]
    static let throttleKeys = ["enabled", "floor-fps", "step-down-after", "restore-after", "steps"]
    static let throttleStepKeys = ["inset-size", "main-size", "frame-rate-step"]

    static func costPolicy(_ reader: YAMLReader) throws -> CostPolicy {
        let fields = try reader.mapping(allowed: costKeys)
        var policy = CostPolicy()
        if let value = fields["over-budget"] { policy.overBudget = try value.choice(CostPolicy.OverBudget.self) }
        return policy
    }

    static func throttlePolicy(_ reader: YAMLReader) throws -> ThrottlePolicy {
        let fields = try reader.mapping(allowed: throttleKeys)
        var policy = ThrottlePolicy()
        if let value = fields["enabled"] { policy.isEnabled = try value.bool() }
        if let value = fields["floor-fps"] { policy.floorFrameRate = try value.double(in: SessionLimits.frameRate) }
        if let value = fields["step-down-after"] { policy.stepDownAfter = try value.duration(in: .milliseconds(500) ... .seconds(600), bare: .seconds) }
        if let value = fields["restore-after"] { policy.restoreAfter = try value.duration(in: .seconds(1) ... .seconds(3600), bare: .seconds) }
        if let value = fields["steps"] { policy.steps = try value.sequence().map(throttleStep) }
        return policy
    }

    /// One step: a mapping with exactly one of `throttleStepKeys`.
    private static func throttleStep(_ reader: YAMLReader) throws -> ThrottleStep {
        let fields = try reader.mapping(allowed: throttleStepKeys)
        guard fields.count == 1, let (key, value) = fields.first else {
            throw reader.error("each step is one of \(throttleStepKeys.joined(separator: ", ")), e.g. - inset-size: 0.5")
        }
        switch key {
        case "inset-size": return .insetSize(try value.double(in: 0.1...1))
        case "main-size": return .mainSize(try value.double(in: 0.1...1))
        default: return .frameRate(by: try value.double(in: 1...60))
        }
    }
}
