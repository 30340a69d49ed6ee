import CaptureModel
import Foundation
import GStreamer

/// A running graph's devices that fail, freeze or go away while the recording goes on (see `SourceKeeper`).
extension RunningGraph {
    /// Starts the keepers once the graph plays; each loss and return becomes a `GraphEvent` and a line
    /// of the recording's interruptions.
    func activateKeepers(onEvent: @escaping @Sendable (GraphEvent) -> Void) {
        for keeper in keepers {
            let inputID = keeper.kept.inputID
            keeper.activate { [weak self] change in
                guard let self else { return }
                switch change {
                case .lost(let reason, let now):
                    interruptions.withValue { $0.append(Interruption(inputID: inputID, reason: reason, from: now)) }
                    onEvent(.interrupted(input: inputID, reason: reason, at: now))
                case .back(let now):
                    interruptions.withValue { list in
                        if let open = list.lastIndex(where: { $0.inputID == inputID && $0.to == nil }) { list[open].to = now }
                    }
                    onEvent(.interruptionEnded(input: inputID, at: now))
                case .modeChanged(let asked, let given):
                    onEvent(.warning("\(inputID) came back without its mode \(asked): recording it as \(given), "
                                     + "made into the same picture"))
                }
            }
        }
    }

    /// The keeper an error from this element is for, once the graph plays (a failure while starting is
    /// the start's to report).
    func keeper(owning message: Message) -> SourceKeeper? {
        guard started.value else { return nil }
        return keepers.first { $0.owns(message) }
    }

    /// Whether the recording goes on through a loss of this input's device.
    package func keepsGoing(without inputID: String) -> Bool {
        keepers.contains { $0.kept.inputID == inputID }
    }

    /// The system says a camera node left or came back: its keeper acts at once.
    package func device(atNode node: String, arrived: Bool) {
        for keeper in keepers where configuration.input(keeper.kept.inputID)?.device.node == node {
            if arrived { keeper.deviceArrived() } else { keeper.deviceLeft() }
        }
    }

    /// Inputs whose device is away now, and since when.
    package var away: [(inputID: String, since: Duration)] {
        interruptions.value.filter { $0.to == nil }.map { ($0.inputID, $0.from) }
    }
}
