import CaptureModel
import GStreamer

/// The preview's part of the graph: a small compositor of its own, fed from each camera's tee like any
/// other output, and a window, the web page's pictures, or both.
///
///     (camera tee) ─ queue(leaky) ─ valve ─ flip ─┐                        ┌─ (text) ─ convert ─ window
///     (camera tee) ─ …                            preview compositor ─ caps ┤
///                                                                          └─ valve ─ queue ─ (rate, scale) ─ jpeg ─ appsink
///
/// Why not a tee of the recorded picture: mirroring the front camera alone would need the picture cut
/// apart and composed again, and there is no recorded picture when only previewing. Composing at preview
/// size costs about what scaling the recorded picture down to it would (each camera is scaled once, into
/// its region), and a flip is a copy of one camera's frame. Every branch starts with a leaky queue, and
/// the window does not wait for the clock, so a slow display loses preview pictures, never recorded ones.
struct PreviewPart {
    let configuration: SessionConfiguration

    /// The preview's picture size: its width, and the recorded picture's aspect.
    var size: (width: Int, height: Int) {
        let (width, height) = configuration.preset.outputSize
        let previewWidth = max(2, (configuration.previewOutput?.width ?? width) & ~1)
        return (previewWidth, max(2, Int((Double(previewWidth) * Double(height) / Double(width)).rounded()) & ~1))
    }

    /// Where a preview connection's camera goes in the preview's picture; nil for other connections.
    func region(of connection: Connection) -> Region? {
        guard let preview = configuration.previewOutput, connection.outputID == preview.id,
              let composed = configuration.composedCameras(into: preview.id) else { return nil }
        let regions = configuration.layout.regions(width: size.width, height: size.height)
        return connection == composed.main ? regions.main : connection == composed.inset ? regions.inset : nil
    }

    /// Links a camera's preview branch to its region of the preview compositor.
    func addCamera(_ connection: Connection, after flip: String, rate: Double, to plan: inout GraphPlan) {
        guard let region = region(of: connection) else { return }
        let compositor = compositor(rate: rate, &plan)
        let pad = "sink_\(plan.links.filter { $0.to == compositor }.count)"
        plan.link(flip, to: compositor, pad, padProperties: ProgramStage.padProperties(region))
    }

    /// The preview compositor. It waits one frame interval for a late camera frame, then shows the last
    /// one it has: a preview should be prompt rather than complete.
    private func compositor(rate: Double, _ plan: inout GraphPlan) -> String {
        if let name = plan.previewCompositor { return name }
        let wait = UInt64(1_000_000_000 / max(1, rate))
        plan.previewCompositor = plan.shared { $0.add("preview", .compositor, [("background", .string("black")), ("latency", .uint(wait))]) }
        return plan.previewCompositor!
    }

    /// Composed in I420 at preview size, then the window, the web page's pictures, or both. Composed for
    /// the pictures alone, it is composed at their rate.
    func addOutputs(_ preview: PreviewOutput, rate: Double, to plan: inout GraphPlan) {
        guard let compositor = plan.previewCompositor else { return }
        let (width, height) = size
        let composedRate = preview.sink == nil ? min(rate, Double(PreviewPictures.frameRate)) : rate
        let caps = plan.add("preview-caps", .capsfilter, [("caps", .caps(GraphCaps.picture(width: width, height: height, frameRate: composedRate)))])
        plan.link(compositor, to: caps)
        var heads: [String] = []
        if let sink = preview.sink { heads.append(addWindow(preview, sink: sink, height: height, to: &plan)) }
        if preview.pictures != nil { heads.append(addPictures(preview, composedRate: composedRate, to: &plan)) }
        plan.fanOut(from: caps, to: heads, tee: "preview-tee")
    }

    /// An optional line of text, and the window. The sink shows each picture as it comes (no clock
    /// sync): the cameras are live already.
    private func addWindow(_ preview: PreviewOutput, sink: ElementFactory, height: Int, to plan: inout GraphPlan) -> String {
        var chain: [String] = []
        if preview.showsOverlay {
            let overlay = plan.add("preview-overlay", .textoverlay, [
                ("text", .string("")), ("halignment", .string("center")), ("valignment", .string("top")),
                ("font-desc", .string("Sans Bold \(max(8, height / 30))")), ("shaded-background", .bool(true)),
            ])
            plan.previewOverlay = ElementHandle(overlay)
            chain.append(overlay)
        }
        chain.append(plan.add("preview-convert", .videoconvert))
        let window = plan.add("preview-sink", sink, [("sync", .bool(false))])
        plan.previewSink = ElementHandle(window)
        chain.append(window)
        plan.chain(chain)
        return chain[0]
    }

    /// The web page's pictures: a switch that is open only while someone watches, a queue of one picture
    /// (the JPEG encoder never holds up the window), at most 10 a second and 640x360, JPEG, to an appsink.
    private func addPictures(_ preview: PreviewOutput, composedRate: Double, to plan: inout GraphPlan) -> String {
        let (width, height) = size
        let fitted = PreviewPictures.size(fitting: width, height)
        let rate = Double(PreviewPictures.frameRate)
        var chain = [
            // Closed, it still lets the caps and the end of stream through, so the recording ends.
            plan.add("preview-pictures-valve", .valve, [("drop", .bool(!preview.isWatched)), ("drop-mode", .string("forward-sticky-events"))]),
            plan.add("preview-pictures-queue", .queue, GraphBuilder.leakyQueue(buffers: 1)),
        ]
        if composedRate > rate { chain.append(plan.add("preview-pictures-rate", .videorate, [("drop-only", .bool(true))])) }
        if fitted.width != width || fitted.height != height { chain.append(plan.add("preview-pictures-scale", .videoscale)) }
        if chain.count > 2 {
            chain.append(plan.add("preview-pictures-caps", .capsfilter, [
                ("caps", .caps(GraphCaps.picture(width: fitted.width, height: fitted.height, frameRate: min(rate, composedRate)))),
            ]))
        }
        chain.append(plan.add("preview-pictures-jpeg", .jpegenc, [("quality", .int(Int64(PreviewPictures.quality)))]))
        // It does not wait for a first picture to start: none comes while nobody watches.
        let sink = plan.add("preview-pictures-sink", .appsink, [("sync", .bool(false)), ("async", .bool(false)), ("max-buffers", .uint(1)), ("drop", .bool(true))])
        plan.appSinks[preview.id] = ElementHandle(sink)
        chain.append(sink)
        plan.chain(chain)
        return chain[0]
    }
}
