import CaptureModel
import GStreamer

/// What the plan's sources that a launch line cannot describe need once the pipeline exists, before it
/// runs: a screen's share from the desktop's portal, a sync camera's flashes and a sync microphone's
/// beeps, a mapped clip's frames.
enum SourceFeeds {
    static func connect(_ plan: GraphPlan, in pipeline: Pipeline, screens: ScreenShares?) throws {
        for (handle, inputID) in plan.screencasts {
            guard let share = screens?.grant(for: inputID), let source = pipeline[handle] else { continue }
            // pipewiresrc takes a copy of the descriptor: the share keeps its own until it ends.
            try source.set("fd", Int32(share.fd))
            try source.set("path", String(share.node))
        }
        for (handle, signal) in plan.syncSignals {
            guard let pad = try pipeline[handle]?.staticPad("src") else { continue }
            switch signal {
            case .flash: pad.drawSyncFlashes()
            case .beep(let late): pad.soundSyncBeeps(late: late)
            }
        }
        for (handle, path) in plan.mappedClips {
            guard let source = pipeline[handle] else { continue }
            source.feed(try Y4MClip(path: path).feed)
        }
    }
}
