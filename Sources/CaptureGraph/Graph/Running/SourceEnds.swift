import Foundation
import GStreamer

/// How a recording's sources are ended when it stops: every source branch from just downstream of the
/// source, which works whatever state the source is in (failed, or blocked waiting for a device).
///
/// Each end is sent from a thread of its own: an end a switch holds back (input-selector keeps an input's
/// end until its other inputs end too) must hold up neither the other branches nor the stop's time limit.
/// The teardown that follows releases it.
enum SourceEnds {
    static func send(plan: GraphPlan, pipeline: Pipeline, keepers: [SourceKeeper]) {
        var ends: [@Sendable () -> Void] = keepers.map { keeper in { keeper.endOfStream() } }
        // A camera's sound never ends by itself either: its microphone's branch is ended below its switch.
        for end in keepers.compactMap({ $0.kept.sound.flatMap { pipeline[$0.end] } }) {
            ends.append { _ = try? end.staticPad("sink").sendEndOfStream() }
        }
        // A slate's source, an optional camera's "waiting" picture and a camera sound's silence are left
        // alone: each feeds a switch whose branch the keeper ends below it.
        let kept = Set(keepers.flatMap { keeper in
            [keeper.kept.source.name, keeper.kept.slate?.source.name, keeper.kept.placeholder.first?.name, keeper.kept.sound?.silence.name].compactMap { $0 }
        })
        for node in plan.nodes where node.factory.isSource && !kept.contains(node.name) {
            guard let source = pipeline[node.handle], let pad = try? source.staticPad("src"), let peer = pad.peer else { continue }
            ends.append { peer.sendEndOfStream() }
        }
        for end in ends { DispatchQueue.global().async(execute: end) }
    }
}
