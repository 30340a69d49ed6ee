import CGStreamer

/// Runs work that a plugin is known to log GLib criticals from, dropping them instead of printing them
/// (or, under G_DEBUG=fatal-criticals, aborting). PipeWire 0.3.65's device provider logs one for each
/// camera format it lists without a pixel format, some 170 on two cameras; the devices it lists are right.
/// Only criticals of the given log domains are dropped, and only while `body` runs.
public enum QuietCriticals {
    public static func run<T>(droppingFrom domains: [String], _ body: () throws -> T) rethrows -> T {
        let critical = G_LOG_LEVEL_CRITICAL
        let handlers = domains.map { domain in
            (domain, g_log_set_handler(domain, critical, { _, _, _, _ in }, nil))
        }
        // The handler runs first, but GLib aborts after it when criticals are fatal (G_DEBUG): lift that.
        let fatal = g_log_set_always_fatal(G_LOG_LEVEL_ERROR)
        _ = g_log_set_always_fatal(GLogLevelFlags(rawValue: fatal.rawValue & ~critical.rawValue))
        defer {
            _ = g_log_set_always_fatal(fatal)
            for (domain, handler) in handlers { g_log_remove_handler(domain, handler) }
        }
        return try body()
    }
}
