import CaptureModel
import GStreamer

/// The video and audio data outputs' part of the graph: a camera's or microphone's frames, made into
/// what the output asks for, handed to the program at an appsink.
enum DataTaps {
    /// A video data output's branch: scaled first (cheap at a smaller size), then converted; elements the
    /// output does not need are left out, so a tap of the captured frames as they are costs almost nothing.
    static func addVideo(_ output: VideoDataOutput, branch: String, after flip: String, to plan: inout GraphPlan) {
        var chain = [flip]
        if output.size != nil { chain.append(plan.add("\(branch)-scale", .videoscale)) }
        if output.pixelFormat != nil { chain.append(plan.add("\(branch)-convert", .videoconvert)) }
        chain.append(plan.add("\(branch)-caps", .capsfilter, [("caps", .caps(output.caps))]))
        chain.append(addAppSink(for: output.id, branch: branch, discardsLate: output.alwaysDiscardsLateVideoFrames, &plan))
        plan.chain(chain)
    }

    /// An audio data output's branch: converted, resampled when it asks for a rate, at its caps.
    static func addSound(_ output: AudioDataOutput, branch: String, after valve: String, to plan: inout GraphPlan) {
        var chain = [valve, plan.add("\(branch)-convert", .audioconvert)]
        if output.sampleRate != nil { chain.append(plan.add("\(branch)-resample", .audioresample)) }
        chain.append(plan.add("\(branch)-caps", .capsfilter, [("caps", .caps(output.caps))]))
        chain.append(addAppSink(for: output.id, branch: branch, discardsLate: output.alwaysDiscardsLateBuffers, &plan))
        plan.chain(chain)
    }

    /// The appsink of a data output. It never syncs to the clock (frames are already live) and never lets
    /// buffers pile up: `DataDelivery` decides what a slow consumer loses.
    private static func addAppSink(for outputID: String, branch: String, discardsLate: Bool, _ plan: inout GraphPlan) -> String {
        let sink = plan.add("\(branch)-sink", .appsink, [
            ("sync", .bool(false)), ("max-buffers", .uint(1)), ("drop", .bool(discardsLate)),
        ])
        plan.appSinks[outputID] = ElementHandle(sink)
        return sink
    }
}
