import CaptureModel
import GStreamer

/// Builds a `GraphPlan` into a real pipeline, element by element, so that every failure names the
/// element, property or pad at fault.
enum PipelineAssembler {
    static func assemble(_ plan: GraphPlan, name: String = "pipcam") throws -> Pipeline {
        let missing = ElementFactory.missing(among: plan.nodes.map(\.factory))
        if !missing.isEmpty { throw CaptureError.missingElements(missing) }
        let pipeline = try Pipeline(name: name)
        pipeline.useSystemClock()
        var elements: [String: Element] = [:]
        for node in plan.nodes {
            let element = try node.factory.make(name: node.name)
            for (property, value) in node.properties {
                try element.set(property, value)
            }
            elements[node.name] = element
        }
        try pipeline.add(plan.nodes.map { elements[$0.name]! })
        for link in plan.links {
            let from = elements[link.from]!, to = elements[link.to]!
            if plan.node(link.from)?.hasDynamicPads == true {
                linkWhenVideoPadAppears(from, to: to)
                continue
            }
            try from.link(to, sourcePad: link.fromPad, sinkPad: link.toPad)
            if let padName = link.toPad, !link.padProperties.isEmpty {
                let pad = try to.staticPad(padName)
                for (property, value) in link.padProperties { try pad.set(property, value) }
            }
            if link.timeOffset != .zero { try from.staticPad(link.sourcePad).timeOffset = link.timeOffset }
        }
        for (name, earlier) in plan.placedEarlierPads { try elements[name]!.staticPad("src").placeEarlier(by: earlier) }
        return pipeline
    }

    /// A decoder's or a demuxer's pads appear once it knows the stream; the first picture pad (raw video,
    /// or the JPEG pictures of an MJPEG clip) is linked, others are ignored.
    private static func linkWhenVideoPadAppears(_ source: Element, to sink: Element) {
        source.onPadAdded { pad in
            guard let caps = pad.currentCaps ?? Optional(pad.queryCaps()),
                  let name = caps.structures.first?.name, name.hasPrefix("video/") || name == "image/jpeg",
                  let sinkPad = try? sink.staticPad("sink"), !sinkPad.isLinked else { return }
            try? pad.link(to: sinkPad)
        }
    }
}

extension Pipeline {
    /// The running element a plan's handle names, as the type the handle says. The one place outside the
    /// assembly where a name becomes an element.
    subscript<Kind>(_ handle: ElementHandle<Kind>) -> Kind? { element(named: handle.name) as? Kind }
}
