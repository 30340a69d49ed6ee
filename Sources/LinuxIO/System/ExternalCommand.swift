import Foundation
import Locking

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
            NamedThread.start("pipcam-command") { continuation.resume(returning: runHere(arguments, timeout: timeout)) }
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
        let exited = Answer<Void>(), drained = Answer<Void>()
        let output = Locked64K()
        NamedThread.start("pipcam-cmd-output") {
            let handle = pipe.fileHandleForReading
            while let chunk = try? handle.read(upToCount: 16 << 10), !chunk.isEmpty { output.append(chunk) }
            drained.give(())
        }
        NamedThread.start("pipcam-cmd-exit") {
            process.waitUntilExit()
            exited.give(())
        }
        var timedOut = false
        if exited.wait(atMost: timeout) == nil {
            timedOut = true
            process.terminate()
            if exited.wait(atMost: .seconds(5)) == nil {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                _ = exited.wait(atMost: .seconds(5))
            }
        }
        // What it printed up to its end; a child still holding the output is not waited for long.
        _ = drained.wait(atMost: .seconds(2))
        let text = output.text
        if timedOut { return Result(status: nil, output: text, problem: "still running after \(timeout.components.seconds) s: ended") }
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
