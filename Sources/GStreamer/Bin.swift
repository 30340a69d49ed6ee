import CGStreamer
import Foundation

/// A container of elements that share state. Elements added to a bin are kept alive by it;
/// the Swift wrappers keep their own reference, so nothing is unreferenced twice.
public class Bin: Element, @unchecked Sendable {
    var bin: UnsafeMutablePointer<GstBin> { pc_bin(raw) }

    /// An empty bin.
    public convenience init(name: String? = nil) throws {
        self.init(try Element.create("bin", name: name), .sinkFloating)
    }

    /// Adds elements in order; fails on a duplicate name or an element that already has a parent.
    public func add(_ elements: Element...) throws { try add(elements) }

    public func add(_ elements: [Element]) throws {
        for child in elements {
            guard gst_bin_add(bin, child.element) != 0 else {
                throw GStreamerError.addFailed(element: child.name, bin: name)
            }
        }
    }

    /// Removes an element (which must be in NULL state, or will be once the bin lets it go).
    public func remove(_ element: Element) {
        gst_bin_remove(bin, element.element)
    }

    /// Links each element to the next.
    public func link(_ elements: Element...) throws { try link(elements) }

    public func link(_ elements: [Element]) throws {
        for (upstream, downstream) in zip(elements, elements.dropFirst()) {
            try upstream.link(downstream)
        }
    }

    /// Adds elements and links them in a chain.
    public func addChain(_ elements: [Element]) throws {
        try add(elements)
        try link(elements)
    }

    /// A child by name, searched recursively.
    public func element(named name: String) -> Element? {
        gst_bin_get_by_name(bin, name).map { Element.wrap($0, .adopt) }
    }

    /// Every element in the bin and its sub-bins.
    public var allElements: [Element] {
        var result: [Element] = []
        let iterator = gst_bin_iterate_recurse(bin)
        defer { gst_iterator_free(iterator) }
        var item = GValue()
        while gst_iterator_next(iterator, &item) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&item) { result.append(Element.wrap(object, .retain)) }
            g_value_reset(&item)
        }
        g_value_unset(&item)
        return result
    }

    // MARK: debugging

    /// The Graphviz description of the bin, with caps and properties, as `GST_DEBUG_DUMP_DOT_DIR` would write it.
    public func dotGraph() -> String {
        takeString(gst_debug_bin_to_dot_data(bin, GST_DEBUG_GRAPH_SHOW_ALL)) ?? ""
    }

    /// Writes the Graphviz description to a file.
    public func writeDotGraph(to path: String) throws {
        try dotGraph().write(toFile: path, atomically: true, encoding: .utf8)
    }
}

extension Bin {
    /// Gives the bin a pad of its own that stands for `target`, a pad of an element inside: elements
    /// outside link to the bin as to one element.
    public func exposePad(_ target: Pad, as name: String) throws {
        guard let ghost = gst_ghost_pad_new(name, target.pad), gst_element_add_pad(element, ghost) != 0 else {
            throw GStreamerError.noSuchPad(element: self.name, pad: name)
        }
    }
}
