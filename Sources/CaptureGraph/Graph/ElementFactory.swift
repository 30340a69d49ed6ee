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
        guard isInstalled else { throw CaptureError.missingElements([self]) }
        return try Element.make(rawValue, name: name, properties: properties)
    }

    /// The factories among these that are not installed, each once, in order.
    public static func missing(among factories: some Sequence<ElementFactory>) -> [ElementFactory] {
        var missing: [ElementFactory] = []
        for factory in factories where !missing.contains(factory) && !factory.isInstalled { missing.append(factory) }
        return missing
    }
}
