import CaptureModel
import GStreamer

extension ElementFactory {
    public var isInstalled: Bool { Gst.hasElement(rawValue) }

    /// One line for each thing optional elements would add that this machine lacks, with what to install:
    /// the package when it is missing, and what else the element needs (hardware, a driver).
    public static var absentOptionalElements: [String] {
        let absent = allCases.filter { !$0.isRequired && !$0.isInstalled }
        var lines: [String] = []
        for what in absent.compactMap(\.benefit?.what) where !lines.contains(where: { $0.hasPrefix("for \(what),") }) {
            let factories = absent.filter { $0.benefit?.what == what }
            let package = factories[0].package
            // A package one of whose elements is here is installed: the absent one needs something else.
            let packageIsHere = allCases.contains { $0.package == package && $0.isInstalled }
            let needs = (packageIsHere ? [] : ["sudo apt-get install \(package)"])
                + [factories[0].benefit?.alsoNeeds].compactMap { $0 }
            let names = factories.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            let action = needs.isEmpty ? "see gst-inspect-1.0 \(factories[0].rawValue)" : needs.joined(separator: " and ")
            lines.append("for \(what), \(action) (\(names) not found)")
        }
        return lines
    }

    /// A new element of this factory; a factory that is not installed names its package.
    func make(name: String? = nil, properties: KeyValuePairs<String, any PropertyValueConvertible> = [:]) throws -> Element {
        guard isInstalled else { throw MissingElements([self]) }
        return try Element.make(rawValue, name: name, properties: properties)
    }
}

/// Elements a graph needs that this machine lacks, said in one line with the packages that bring them.
public struct MissingElements: Error, CustomStringConvertible, Equatable {
    public let factories: [ElementFactory]

    public init(_ factories: [ElementFactory]) { self.factories = factories }

    /// The factories among these that are not installed, or nil when all are.
    public init?(checking factories: some Sequence<ElementFactory>) {
        var missing: [ElementFactory] = []
        for factory in factories where !missing.contains(factory) && !factory.isInstalled { missing.append(factory) }
        guard !missing.isEmpty else { return nil }
        self.init(missing)
    }

    public var packages: [String] {
        factories.reduce(into: []) { packages, factory in
            if !packages.contains(factory.package) { packages.append(factory.package) }
        }
    }

    public var description: String {
        let names = factories.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let verb = factories.count == 1 ? "is" : "are"
        let noun = factories.count == 1 ? "element" : "elements"
        return "GStreamer \(noun) \(names) \(verb) not installed: sudo apt-get install \(packages.joined(separator: " "))"
    }
}
