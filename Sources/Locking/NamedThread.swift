import Foundation

/// A thread of its own, named for `ps`, `top` and debuggers as it starts.
///
/// Not `Thread.current.name`: Foundation names the system thread only once the thread that started it
/// has recorded its handle, which a thread starting quickly may not wait for; it then keeps the name of
/// the thread that made it (a bus reader was seen as "r-initiated-qos", a worker of Swift's pool, on a
/// loaded machine). The name is written where Linux keeps it (`pthread_setname_np` does the same, and
/// is not visible to Swift).
public enum NamedThread {
    /// Runs `body` on a new thread named `name` (the system keeps its first 15 bytes).
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        Thread {
            FileHandle(forWritingAtPath: "/proc/thread-self/comm")?.write(Data(name.utf8.prefix(15)))
            body()
        }.start()
    }
}
