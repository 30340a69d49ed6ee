import CGio
import Foundation
import Locking

/// The screen through the desktop's portal (org.freedesktop.portal.ScreenCast): on Wayland no program
/// may read the screen itself; it asks the portal, the desktop asks the user which screen to share (or
/// remembers the answer), and hands back a PipeWire connection and the node to read with `pipewiresrc`.
///
/// Each share has a D-Bus connection of its own: the portal ends the share when that connection closes,
/// so a crashed pipcam never leaves the screen shared.
public enum ScreenCastPortal {
    /// A screen the user agreed to share: pass `fd` and `node` to pipewiresrc (`fd`, `path`). The share
    /// lasts until `close()` or until the grant is released.
    public final class Grant: @unchecked Sendable {
        public let fd: Int32
        public let node: UInt32
        /// What lets the next share skip the question, when the desktop offers it.
        public let restoreToken: String?
        private let connection: Connection
        private let session: String
        private let lock = NSLock()
        private var closed = false

        fileprivate init(fd: Int32, node: UInt32, restoreToken: String?, connection: Connection, session: String) {
            self.fd = fd
            self.node = node
            self.restoreToken = restoreToken
            self.connection = connection
            self.session = session
        }

        /// Ends the share.
        public func close() {
            let wasOpen = lock.withLock { () -> Bool in
                defer { closed = true }
                return !closed
            }
            guard wasOpen else { return }
            connection.callIgnoringReply(path: session, interface: "org.freedesktop.portal.Session", method: "Close", arguments: [])
            connection.close()
            Glibc.close(fd)
        }

        deinit { close() }
    }

    /// Asks the desktop to share one screen. `restoreToken` from an earlier grant lets the desktop share
    /// the same screen again without asking. Runs on a thread of its own: the user may take a while to
    /// choose, and Swift's cooperative threads must not wait for that. `isCancelled` is asked ten times a
    /// second while the desktop has not answered: a recording stopped meanwhile does not wait for the user.
    public static func share(showsPointer: Bool, restoreToken: String?, timeout: Duration = .seconds(120),
                             isCancelled: @escaping @Sendable () -> Bool = { false }) async throws -> Grant {
        try await Blocking.run { try shareNow(showsPointer: showsPointer, restoreToken: restoreToken, timeout: timeout, isCancelled: isCancelled) }
    }

    private static func shareNow(showsPointer: Bool, restoreToken: String?, timeout: Duration, isCancelled: () -> Bool) throws -> Grant {
        let connection = try Connection()
        var succeeded = false
        defer { if !succeeded { connection.close() } }
        guard let sourceTypes = try? connection.property("AvailableSourceTypes", timeout: 10)?.uint32, sourceTypes & 1 != 0 else {
            throw GStreamerError.screenShare(.noPortal)
        }
        let version = (try? connection.property("version", timeout: 10))??.uint32 ?? 1
        let cursorModes = (try? connection.property("AvailableCursorModes", timeout: 10))??.uint32 ?? 0
        let deadline = ContinuousClock.now + timeout

        let created = try connection.request("CreateSession", deadline: deadline, isCancelled: isCancelled) { token in
            [Variant.options(["handle_token": Variant.string(token), "session_handle_token": Variant.string("pipcam\(token)")])]
        }
        guard let session = created["session_handle"]?.string else {
            throw GStreamerError.screenShare(.noSession)
        }
        var selection: [String: OpaquePointer] = ["types": Variant.uint32(1), "multiple": Variant.bool(false)]
        // Embedded draws the pointer into the picture; hidden leaves it out. Unsupported modes are not asked for.
        let cursor: UInt32 = showsPointer ? 2 : 1
        if cursorModes & cursor != 0 { selection["cursor_mode"] = Variant.uint32(cursor) }
        if version >= 4 {
            // Kept until the user revokes it, so the next recording shares the same screen without asking.
            selection["persist_mode"] = Variant.uint32(2)
            if let restoreToken { selection["restore_token"] = Variant.string(restoreToken) }
        }
        _ = try connection.request("SelectSources", deadline: deadline, isCancelled: isCancelled) { token in
            selection["handle_token"] = Variant.string(token)
            return [Variant.objectPath(session), Variant.options(selection)]
        }
        let started = try connection.request("Start", deadline: deadline, isCancelled: isCancelled) { token in
            [Variant.objectPath(session), Variant.string(""), Variant.options(["handle_token": Variant.string(token)])]
        }
        guard let streams = started["streams"], let first = streams.children.first else {
            throw GStreamerError.screenShare(.noScreen)
        }
        let parts = first.children
        guard parts.count == 2, let node = parts[0].uint32 else { throw GStreamerError.screenShare(.unknownStream) }
        let fd = try connection.openPipeWireRemote(session: session)
        succeeded = true
        return Grant(fd: fd, node: node, restoreToken: started["restore_token"]?.string,
                     connection: connection, session: session)
    }
}

/// A private connection to the session bus, with a main context of its own on which the portal's
/// Response signals arrive.
private final class Connection: @unchecked Sendable {
    private static let portal = "org.freedesktop.portal.Desktop"
    private static let desktopPath = "/org/freedesktop/portal/desktop"
    private static let screenCast = "org.freedesktop.portal.ScreenCast"

    let raw: OpaquePointer
    let context: OpaquePointer
    private var tokens = 0

    init() throws {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw GStreamerError.screenShare(.noSessionBus(reason: Self.take(error)))
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let made = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw GStreamerError.screenShare(.sessionBusUnreachable(reason: Self.take(error)))
        }
        raw = made
        context = g_main_context_new()
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(raw))
        g_main_context_unref(context)
    }

    private var connection: OpaquePointer { raw }

    func close() {
        g_dbus_connection_close_sync(connection, nil, nil)
    }

    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

    /// A ScreenCast property, or nil when the portal does not answer within `timeout` seconds.
    func property(_ name: String, timeout: Int32) throws -> ReadValue? {
        var error: UnsafeMutablePointer<GError>?
        let arguments = Variant.tuple([Variant.string(Self.screenCast), Variant.string(name)])
        guard let reply = g_dbus_connection_call_sync(connection, Self.portal, Self.desktopPath, "org.freedesktop.DBus.Properties", "Get",
                                                      arguments, nil, G_DBUS_CALL_FLAGS_NONE, timeout * 1000, nil, &error) else {
            throw GStreamerError.screenShare(.unreadable(reason: Self.take(error)))
        }
        // (v) → the value inside the variant.
        return ReadValue(owning: reply).children.first?.unboxed
    }

    /// Calls a ScreenCast method that answers through a Request object's Response signal, and waits for
    /// that answer on this connection's own main context. Returns the answer's results.
    func request(_ method: String, deadline: ContinuousClock.Instant, isCancelled: () -> Bool, arguments: (String) -> [OpaquePointer]) throws -> [String: ReadValue] {
        tokens += 1
        let token = "pipcam\(getpid())_\(tokens)"
        let sender = String(cString: g_dbus_connection_get_unique_name(connection)).dropFirst().replacingOccurrences(of: ".", with: "_")
        let requestPath = "\(Self.desktopPath)/request/\(sender)/\(token)"
        let answer = Answer()
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        let box = Unmanaged.passRetained(answer)
        let subscription = g_dbus_connection_signal_subscribe(
            connection, Self.portal, "org.freedesktop.portal.Request", "Response", requestPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let data, let parameters else { return }
                Unmanaged<Answer>.fromOpaque(data).takeUnretainedValue().received(parameters)
            }, box.toOpaque(), { data in
                if let data { Unmanaged<Answer>.fromOpaque(data).release() }
            })
        defer {
            g_dbus_connection_signal_unsubscribe(connection, subscription)
            // Lets GLib release the subscription's answer, which it does from this context.
            while g_main_context_iteration(context, 0) != 0 {}
        }

        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, Self.portal, Self.desktopPath, Self.screenCast, method,
                                                      Variant.tuple(arguments(token)), nil, G_DBUS_CALL_FLAGS_NONE, 30_000, nil, &error) else {
            throw GStreamerError.screenShare(.requestRefused(method: method, reason: Self.take(error)))
        }
        g_variant_unref(reply)
        while answer.code == nil {
            if isCancelled() { throw GStreamerError.screenShare(.cancelled) }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw GStreamerError.screenShare(.noAnswer)
            }
            // Wakes at least every 100 ms to look at the clock.
            let wake = g_timeout_source_new(100)
            g_source_set_callback(wake, { _ in 0 }, nil, nil)
            g_source_attach(wake, context)
            g_main_context_iteration(context, 1)
            g_source_destroy(wake)
            g_source_unref(wake)
        }
        switch answer.code {
        case 0: return answer.results
        case 1: throw GStreamerError.screenShare(.cancelled)
        default: throw GStreamerError.screenShare(.refused(method: method))
        }
    }

    /// Sends a call without waiting for its answer (closing a session on the way out).
    func callIgnoringReply(path: String, interface: String, method: String, arguments: [OpaquePointer]) {
        g_dbus_connection_call(connection, Self.portal, path, interface, method, Variant.tuple(arguments), nil,
                               G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, nil, nil)
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    /// The PipeWire connection the portal opens for the session: a file descriptor of our own.
    func openPipeWireRemote(session: String) throws -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        var fds: UnsafeMutablePointer<GUnixFDList>?
        let arguments = Variant.tuple([Variant.objectPath(session), Variant.options([:])])
        guard let reply = g_dbus_connection_call_with_unix_fd_list_sync(connection, Self.portal, Self.desktopPath, Self.screenCast, "OpenPipeWireRemote",
                                                                        arguments, nil, G_DBUS_CALL_FLAGS_NONE, 30_000, nil, &fds, nil, &error) else {
            throw GStreamerError.screenShare(.noPipeWire(reason: Self.take(error)))
        }
        let answer = ReadValue(owning: reply)
        defer { if let fds { g_object_unref(fds) } }
        guard let fds, let handle = answer.children.first?.handle else {
            throw GStreamerError.screenShare(.noPipeWire(reason: nil))
        }
        let fd = g_unix_fd_list_get(fds, handle, &error)
        guard fd >= 0 else { throw GStreamerError.screenShare(.pipeWireNotTaken(reason: Self.take(error))) }
        return fd
    }
}

/// What a Request's Response signal carried: the response code (0 done, 1 cancelled, 2 other) and results.
private final class Answer: @unchecked Sendable {
    var code: UInt32?
    var results: [String: ReadValue] = [:]

    func received(_ parameters: OpaquePointer) {
        let parts = ReadValue(borrowing: parameters).children
        guard parts.count == 2 else { return }
        code = parts[0].uint32 ?? 2
        results = parts[1].entries
    }
}

/// GVariant values made from Swift. Made values are floating: the call or container they go into owns them.
private enum Variant {
    static func string(_ text: String) -> OpaquePointer { g_variant_new_string(text) }
    static func objectPath(_ path: String) -> OpaquePointer { g_variant_new_object_path(path) }
    static func uint32(_ value: UInt32) -> OpaquePointer { g_variant_new_uint32(value) }
    static func bool(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }

    static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        var pointers: [OpaquePointer?] = children
        return g_variant_new_tuple(&pointers, gsize(pointers.count))
    }

    /// An a{sv} dictionary.
    static func options(_ entries: [String: OpaquePointer]) -> OpaquePointer {
        let builder = g_variant_builder_new(pc_variant_type_vardict())
        defer { g_variant_builder_unref(builder) }
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        return g_variant_builder_end(builder)
    }
}

/// A GVariant read from an answer: a reference of our own, let go with the value.
private final class ReadValue {
    let raw: OpaquePointer

    /// Takes over a reference the caller owns.
    init(owning raw: OpaquePointer) { self.raw = raw }
    /// Takes a reference of its own to a value borrowed for the moment (a signal's parameters).
    init(borrowing raw: OpaquePointer) { self.raw = g_variant_ref(raw) }

    deinit { g_variant_unref(raw) }

    var children: [ReadValue] {
        guard g_variant_is_container(raw) != 0 else { return [] }
        return (0..<g_variant_n_children(raw)).compactMap { g_variant_get_child_value(raw, $0).map(ReadValue.init(owning:)) }
    }

    /// The value inside a variant (v).
    var unboxed: ReadValue? { g_variant_get_variant(raw).map(ReadValue.init(owning:)) }

    /// An a{sv} dictionary's entries, the values unboxed.
    var entries: [String: ReadValue] {
        var result: [String: ReadValue] = [:]
        for entry in children {
            let pair = entry.children
            guard pair.count == 2, let key = pair[0].string, let value = pair[1].unboxed else { continue }
            result[key] = value
        }
        return result
    }

    private var type: String { String(cString: g_variant_get_type_string(raw)) }

    var string: String? { ["s", "o"].contains(type) ? String(cString: g_variant_get_string(raw, nil)) : nil }
    var uint32: UInt32? { type == "u" ? g_variant_get_uint32(raw) : nil }
    var handle: Int32? { type == "h" ? g_variant_get_handle(raw) : nil }
}
