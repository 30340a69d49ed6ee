import CaptureModel
import GStreamer

/// Prints a plan as the equivalent `gst-launch-1.0` command line: every element declared with its
/// name and properties, then every link between named elements and pads. A mapped clip (`Y4MClip`)
/// is fed by pipcam itself, which gst-launch cannot do: the line reads it with GStreamer's own
/// `filesrc` and `y4mdec` instead, under the same name, so the rest of the graph is unchanged. A camera
/// pipcam opens once the recording plays (an optional camera, a network camera) is opened from the
/// start, into its switch's next input. pipcam's own scaled JPEG decoder is not GStreamer's: the line
/// decodes with `jpegdec`, whole, under the same name (the scalers after it make the same size).
public enum LaunchLine {
    public static func render(_ plan: GraphPlan) -> String {
        var parts: [String] = []
        // Pad properties go on the element that owns the request pad: `picture. sink_0::xpos=10`.
        var padProperties: [String: [String]] = [:]
        for link in plan.links where !link.padProperties.isEmpty {
            padProperties[link.to, default: []] += link.padProperties.map { "\(link.toPad ?? "sink")::\($0.0)=\(quote($0.1))" }
        }
        for node in plan.nodes {
            if let path = plan.mappedClips[ElementHandle(node.name)] {
                parts.append("filesrc name=\(node.name)-file location=\(quote(.string(path))) blocksize=\(1 << 20)")
                parts.append("y4mdec name=\(node.name)")
                parts.append("\(node.name)-file. ! \(node.name).")
                continue
            }
            if node.factory == .jpegDecoder {
                parts.append("\(ElementFactory.jpegdec.rawValue) name=\(node.name)")
                continue
            }
            let properties = node.properties.map { "\($0.0)=\(quote($0.1))" } + (padProperties[node.name] ?? [])
            parts.append(([node.factory.rawValue, "name=\(node.name)"] + properties).joined(separator: " "))
        }
        for link in plan.links {
            parts.append("\(link.from).\(link.fromPad ?? "") ! \(link.to).\(link.toPad ?? "")")
        }
        for kept in plan.inputs.compactMap(\.kept) where kept.startsDetached {
            parts += detached(kept)
        }
        return "gst-launch-1.0 -e " + parts.joined(separator: "  ")
    }

    /// A detached camera's source, linked as the keeper links it: into the element it feeds, and its
    /// frames into the switch's input after the waiting picture (`sink_0`) and the slate (`sink_1`).
    /// A network camera is opened as `NetworkCameraSource` opens it, its password hidden; its sound, when
    /// a microphone takes it, goes into the microphone's switch.
    private static func detached(_ kept: GraphPlan.KeptSource) -> [String] {
        let source = kept.source.name
        var parts: [String]
        switch kept.recipe {
        case .element(let factory, let properties):
            parts = [([factory.rawValue, "name=\(source)"] + properties.map { "\($0.0)=\(quote($0.1))" }).joined(separator: " ")]
        case .network(let camera, let frameRate):
            let address = quote(.string(camera.shownAddress))
            let opened = camera.kind == .http
                ? "souphttpsrc location=\(address) is-live=true do-timestamp=true ! multipartdemux ! jpegdec"
                : "uridecodebin name=\(source)-decode uri=\(address)"
            let caps = NetworkCameraSource.pictures(frameRate: frameRate)
            parts = ["\(opened) ! videoconvert ! videorate ! capsfilter name=\(source) caps=\(quote(.caps(caps)))"]
            if let sound = kept.sound {
                // Its sound, from the same source, into the microphone's switch after the silence.
                parts += ["\(source)-decode. ! \(sound.next.name).", "\(sound.output.name). ! \(sound.selector.name).sink_1"]
            }
        }
        parts.append("\(source). ! \(kept.next.name).")
        if let selector = kept.selector?.name, let frames = kept.frames?.name { parts.append("\(frames). ! \(selector).sink_2") }
        return parts
    }

    /// Quotes a value for both gst-launch's parser and a POSIX shell.
    static func quote(_ value: PropertyValue) -> String {
        var text = value.description
        if case .caps(let caps) = value { text = caps.launchText }
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:+".contains($0) }
        return plain ? text : "'\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"'"
    }
}
