import Foundation

/// Network namespaces a test makes, each with its loopback up; `remove` (or the object going) deletes
/// them, and with them their veths, newest first. Needs root (`ip netns`).
final class Namespaces: @unchecked Sendable {
    private var made: [String] = []

    deinit { remove() }

    func add(_ namespace: String) throws {
        try Self.ip(["netns", "add", namespace])
        made.append(namespace)
        try Self.ip(["-n", namespace, "link", "set", "lo", "up"])
    }

    func remove() {
        for namespace in made.reversed() { _ = try? Command.run(["ip", "netns", "delete", namespace]) }
        made = []
    }

    /// A veth pair whose ends are `first` in `firstNamespace` and `second` in `secondNamespace`, up, with
    /// `firstAddress` (a CIDR) on the first end and `secondAddress` on the second when given.
    static func link(_ first: String, in firstNamespace: String, address firstAddress: String?,
                     to second: String, in secondNamespace: String, address secondAddress: String?) throws {
        try ip(["link", "add", first, "type", "veth", "peer", "name", second])
        for (end, namespace, address) in [(first, firstNamespace, firstAddress), (second, secondNamespace, secondAddress)] {
            try ip(["link", "set", end, "netns", namespace])
            if let address { try ip(["-n", namespace, "addr", "add", address, "dev", end]) }
            try ip(["-n", namespace, "link", "set", end, "up"])
        }
    }

    /// Runs `ip`; throws with what it said when it fails.
    static func ip(_ arguments: [String]) throws {
        let result = try Command.run(["ip"] + arguments)
        guard result.status == 0 else { throw ProbeError("ip \(arguments.joined(separator: " ")) failed: \(result.error)") }
    }

    /// A short tag for this test process's names: an interface's name is at most 15 characters.
    static var tag: String { "pc\(getpid() % 100_000)" }
}

/// Hosts of a test's own on one machine: network namespaces, each a rig linked to a hub namespace (where
/// the servers run) by a veth pair on a /30 of its own, 10.231.N.1 at the hub and 10.231.N.2 at the rig.
/// The addresses exist only inside these namespaces, so nothing a test sends leaves them. Needs root
/// (`ip netns`); everything made is deleted by `remove`, or when the object goes.
public final class TestNetwork: @unchecked Sendable {
    public struct Rig: Sendable {
        public let namespace: String
        /// The rig's address, and the hub's as the rig reaches it.
        public let address: String
        public let hubAddress: String
        /// What runs a program in the rig's namespace.
        public var launcher: [String] { ["ip", "netns", "exec", namespace] }
    }

    public let hub: String
    public private(set) var rigs: [Rig] = []
    private let namespaces = Namespaces()

    /// The hub and `count` rigs; throws, with what `ip` said, when they cannot be made (not root).
    public init(rigs count: Int) throws {
        let tag = Namespaces.tag
        hub = "\(tag)h"
        do {
            try namespaces.add(hub)
            for number in 1...count {
                let namespace = "\(tag)r\(number)", hubSide = "\(tag)a\(number)", rigSide = "\(tag)b\(number)"
                try namespaces.add(namespace)
                try Namespaces.link(hubSide, in: hub, address: "10.231.\(number).1/30", to: rigSide, in: namespace, address: "10.231.\(number).2/30")
                rigs.append(Rig(namespace: namespace, address: "10.231.\(number).2", hubAddress: "10.231.\(number).1"))
            }
        } catch {
            remove()
            throw error
        }
    }

    /// What runs a program in the hub's namespace.
    public var hubLauncher: [String] { ["ip", "netns", "exec", hub] }

    /// Deletes the namespaces (and with them their veths).
    public func remove() { namespaces.remove() }
}

/// A host of a test's own that never answers: a network namespace whose route to `address` leads, by a
/// fixed neighbour entry, to a MAC address nobody has, at the end of a veth pair whose other side (in a
/// second namespace) has no address and drops what it is sent. A program run there (`launcher`) that
/// calls `address` waits for an answer that never comes, as it would for a machine that is off or a
/// firewall that drops; nothing leaves the namespaces. Needs root; deleted by `remove`, or when the
/// object goes.
public final class BlackHole: @unchecked Sendable {
    public let namespace: String
    /// An address with no host behind it.
    public let address = "10.231.250.1"
    private let namespaces = Namespaces()

    public init() throws {
        let tag = Namespaces.tag, ip = Namespaces.ip
        namespace = "\(tag)z"
        let void = "\(tag)v", (here, there) = ("\(tag)zh", "\(tag)zv")
        do {
            try namespaces.add(namespace)
            try namespaces.add(void)
            try Namespaces.link(here, in: namespace, address: "10.231.250.2/24", to: there, in: void, address: nil)
            try ip(["-n", namespace, "neigh", "add", address, "lladdr", "02:00:00:00:fa:01", "dev", here, "nud", "permanent"])
        } catch {
            remove()
            throw error
        }
    }

    /// What runs a program in the namespace.
    public var launcher: [String] { ["ip", "netns", "exec", namespace] }

    public func remove() { namespaces.remove() }
}
