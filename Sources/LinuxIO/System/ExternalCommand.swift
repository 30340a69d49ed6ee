import Foundation

/// A program run to its end on threads of its own, never a shell: its words go to it as they are.
/// What it prints (standard output and error together) is kept, its last 64 KiB; one that runs past its
/// time is asked to end, then killed. Children it leaves behind are its own business.
public enum ExternalCommand {
    public struct Result: Sendable {
        /// Its exit status; nil when it could not be started or was ended for running too long.
        public let status: Int32?
        public let output: String
        public let problem: String?
    }

    /// Whether `program` is a path to an executable file, or is found on PATH.
    public static func exists(_ program: String) -> Bool {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    /// Runs `arguments` (the program first, found on PATH) and waits for it, at most `timeout`.
    public static func run(_ arguments: [String], timeout: Duration) async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: runHere(arguments, timeout: timeout)) }
            thread.name = "external command"
            thread.start()
        }
    }

    private static func runHere(_ arguments: [String], timeout: Duration) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Result(status: nil, output: "", problem: "cannot start \(arguments.first ?? ""): \(error.localizedDescription)")
        }
        // Ended is the process's exit, not its output's end: a child of its own may hold that open.
        let exited = DispatchSemaphore(value: 0), drained = DispatchSemaphore(value: 0)
        let output = Locked64K()
        let reader = Thread {
            let handle = pipe.fileHandleForReading
            while let chunk = try? handle.read(upToCount: 16 << 10), !chunk.isEmpty { output.append(chunk) }
            drained.signal()
        }
        reader.start()
        let waiter = Thread {
            process.waitUntilExit()
            exited.signal()
        }
        waiter.start()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        var timedOut = false
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                exited.wait()
            }
        }
        // What it printed up to its end; a child still holding the output is not waited for long.
        _ = drained.wait(timeout: .now() + 2)
        let text = output.text
        if timedOut { return Result(status: nil, output: text, problem: "still running after \(Int(seconds)) s: ended") }
        return Result(status: process.terminationStatus, output: text, problem: nil)
    }
}

/// The last 64 KiB of what a command printed.
private final class Locked64K: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.withLock {
            data.append(chunk)
            if data.count > 64 << 10 { data = data.suffix(64 << 10) }
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
