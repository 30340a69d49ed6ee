import CGStreamer

/// Runs work that a plugin is known to log GLib criticals from, dropping them instead of printing them
/// (or, under G_DEBUG=fatal-criticals, aborting). PipeWire 0.3.65's device provider logs one for each
/// camera format it lists without a pixel format, some 170 on two cameras; the devices it lists are right.
/// Only criticals of the given log domains are dropped, and only while `body` runs: any other critical
/// is printed, and fatal when criticals are.
public enum QuietCriticals {
    public static func run<T>(droppingFrom domains: [String], _ body: () throws -> T) rethrows -> T {
        let box = Unmanaged.passRetained(Domains(domains))
        let handlers = domains.map { domain in
            // A handler matches only levels whose every flag it names: fatal criticals carry G_LOG_FLAG_FATAL.
            (domain, g_log_set_handler(domain, GLogLevelFlags(G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue),
                                       { _, _, _, _ in }, nil))
        }
        // GLib aborts after the handler when criticals are fatal, unless this hook says not to.
        g_test_log_set_fatal_handler({ domain, _, _, data in
            let dropped = data.map { Unmanaged<Domains>.fromOpaque($0).takeUnretainedValue().names } ?? []
            return domain.map { dropped.contains(String(cString: $0)) } == true ? 0 : 1
        }, box.toOpaque())
        defer {
            g_test_log_set_fatal_handler(nil, nil)
            for (domain, handler) in handlers { g_log_remove_handler(domain, handler) }
            box.release()
        }
        return try body()
    }

    private final class Domains {
        let names: [String]
        init(_ names: [String]) { self.names = names }
    }
}
