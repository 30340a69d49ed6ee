/// Decides, sample by sample, when to step down the throttle ladder and when to climb back.
///
/// - Down one rung when pressure has stayed serious or worse for `stepDownAfter`; the next step waits
///   a full `stepDownAfter` again, so each step's effect shows before the next is taken.
/// - Up one rung when pressure has stayed nominal for the restore wait; fair holds the rung (the
///   band between the two is the hysteresis), and any sample at serious restarts the wait.
/// - A restore undone by a step down before it has lasted one restore wait was premature: the wait
///   doubles (up to 8 times `restoreAfter`), so load that returns when settings do cannot make the
///   session swing up and down. A restore that holds halves it again.
///
/// Pure: the caller passes readings and times, and applies the events it returns.
public struct ThrottleController: Sendable {
    public let ladder: ThrottleLadder
    public let policy: ThrottlePolicy
    /// The rung in force (0: as configured).
    public private(set) var step = 0
    /// How long pressure must now stay nominal before the next restore.
    public private(set) var restoreWait: Duration

    private var pressedSince: Duration?
    private var calmSince: Duration?
    private var lastRestore: Duration?

    public init(policy: ThrottlePolicy, frameRate: Double) {
        self.policy = policy
        ladder = policy.ladder(frameRate: frameRate)
        restoreWait = policy.restoreAfter
    }

    public var settings: ThrottleSettings { ladder.rungs[step].settings }

    /// Takes one reading at `now` (a monotonic time) and returns the step to apply, if any.
    public mutating func observe(_ reading: PressureReading, at now: Duration) -> ThrottleEvent? {
        guard policy.isEnabled else { return nil }
        if reading.level >= .serious {
            calmSince = nil
            let since = pressedSince ?? now
            pressedSince = since
            guard now - since >= policy.stepDownAfter, step < ladder.bottom else { return nil }
            if let restored = lastRestore, now - restored < restoreWait {
                restoreWait = min(restoreWait * 2, policy.restoreAfter * 8)
            }
            lastRestore = nil
            step += 1
            pressedSince = now
            return event(.throttle, change: ladder.rungs[step].change,
                         reason: "pressure \(reading.level) \(Self.seconds(now - since)): \(reading.causes)", at: now)
        }
        pressedSince = nil
        guard reading.level == .nominal else {
            // Fair: neither pressed nor calm; the rung holds.
            calmSince = nil
            return nil
        }
        let since = calmSince ?? now
        calmSince = since
        guard step > 0, now - since >= restoreWait else { return nil }
        if lastRestore != nil { restoreWait = max(policy.restoreAfter, restoreWait / 2) }
        let given = ladder.rungs[step].change
        step -= 1
        calmSince = now
        lastRestore = now
        return event(.restore, change: given, reason: "pressure nominal \(Self.seconds(now - since))", at: now)
    }

    private func event(_ kind: ThrottleEvent.Kind, change: String, reason: String, at now: Duration) -> ThrottleEvent {
        ThrottleEvent(kind: kind, step: step, bottom: ladder.bottom, settings: settings, change: change, reason: reason, time: now)
    }

    /// "for 3 s".
    private static func seconds(_ duration: Duration) -> String {
        "for \(VideoFormat.rateText((duration.seconds * 10).rounded() / 10)) s"
    }
}
