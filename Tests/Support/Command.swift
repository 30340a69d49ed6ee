import Foundation

/// Runs a program to completion and keeps what it printed.
public struct CommandResult: Sendable {
    public let status: Int32
    public let output: String
    public let error: String
}

public enum Command {
    /// Runs `arguments[0]` (looked up on PATH) with the rest as arguments.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> CommandResult {
        let process = try start(arguments, environment: environment, directory: directory)
        return process.wait()
    }

    /// Starts a program and returns it running; `wait()` collects its output.
    public static func start(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> RunningCommand {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let running = RunningCommand(process: process, output: output, error: error)
        try process.run()
        return running
    }
}

/// A started program. Its output is drained while it runs so a chatty program never blocks on a full pipe.
public final class RunningCommand: @unchecked Sendable {
    let process: Process
    private let lock = NSLock()
    private var outputData = Data(), errorData = Data()
    private let drained = DispatchGroup()

    init(process: Process, output: Pipe, error: Pipe) {
        self.process = process
        for (pipe, isError) in [(output, false), (error, true)] {
            drained.enter()
            DispatchQueue.global().async { [self] in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                lock.lock()
                if isError { errorData = data } else { outputData = data }
                lock.unlock()
                drained.leave()
            }
        }
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    public func wait() -> CommandResult {
        process.waitUntilExit()
        drained.wait()
        lock.lock()
        defer { lock.unlock() }
        return CommandResult(status: process.terminationStatus,
                             output: String(decoding: outputData, as: UTF8.self),
                             error: String(decoding: errorData, as: UTF8.self))
    }
}

/// Where things are: the repository, the built `pipcam`, a scratch folder per test.
public enum Paths {
    /// The repository root, found from this file's location.
    public static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }()

    /// The `pipcam` executable built beside the test bundle.
    public static let pipcam = built("pipcam")
    /// The sync camera and microphone's other end (`Tests/SyncSignals`).
    public static let syncSignals = built("sync-signals")

    private static func built(_ name: String) -> String {
        let candidates = [Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
            .map { $0.appendingPathComponent(name).path } + ["\(repository)/.build/debug/\(name)"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    /// A new empty folder for one test's files, removed when the test passes (kept when it fails, to look at).
    public static func scratch(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "pipcam-tests/\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        ScratchFolders.shared.made(path)
        return path
    }
}
