import ArgumentParser
import Capture
import Foundation

/// The secrets of the streams a command line adds to a description's (`record --stream`, `pipcam
/// stream`), each from the environment, never the command line.
struct StreamOptions: ParsableArguments {
    @Option(name: .customLong("stream-key-env"), help: ArgumentHelp(
        "Take a stream's key (RTMP's stream key, SRT's stream id) from this environment variable, never the command line (repeatable; NAME=VARIABLE when there are several streams).",
        valueName: "variable"))
    var keyVariables: [String] = []

    @Option(name: .customLong("stream-passphrase-env"), help: ArgumentHelp(
        "Take an SRT stream's passphrase from this environment variable (repeatable; NAME=VARIABLE when there are several streams).",
        valueName: "variable"))
    var passphraseVariables: [String] = []

    /// Each address as a stream, named NAME= or after its kind ("rtmp", "srt-2"), after `existing`.
    func streams(_ addresses: [String], besides existing: [StreamOutput],
                 environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [StreamOutput] {
        var named: [(name: String, address: String)] = []
        for (name, text) in addresses.map(Self.nameAndAddress) {
            let kind = text.prefix { $0 != ":" }.lowercased()
            let taken = existing.map(\.name) + named.map(\.name)
            named.append((name ?? Self.unusedName(kind.isEmpty || kind.count > 8 ? "stream" : kind, among: taken), text))
        }
        let names = named.map(\.name)
        let keys = try secrets(keyVariables, option: "--stream-key-env", what: "stream key", names: names, environment: environment)
        let passphrases = try secrets(passphraseVariables, option: "--stream-passphrase-env", what: "passphrase", names: names, environment: environment)
        var streams = existing
        for (name, text) in named {
            do { streams.append(try StreamOutput(name: name, address: text, key: keys[name], passphrase: passphrases[name])) } catch {
                throw CLIError("\(CaptureError.streamOutput(name: name, error))")
            }
        }
        return streams
    }

    /// NAME=ADDRESS: a name has no ':' or '/', so an SRT query's '=' is never taken for one.
    private static func nameAndAddress(_ address: String) -> (name: String?, address: String) {
        guard let equals = address.firstIndex(of: "="), !address[..<equals].contains(where: { ":/?".contains($0) }) else { return (nil, address) }
        return (String(address[..<equals]), String(address[address.index(after: equals)...]))
    }

    /// Each `[NAME=]VARIABLE`'s value, keyed by its stream's name (the only `--stream`'s without a
    /// NAME); a variable that is not set, or a name no `--stream` has, is refused.
    private func secrets(_ options: [String], option: String, what: String, names: [String],
                         environment: [String: String]) throws -> [String: String] {
        var values: [String: String] = [:]
        for text in options {
            let (name, variable) = Self.nameAndAddress(text)
            // A value pasted where the variable's name goes is never quoted back.
            guard let first = variable.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first),
                  variable.unicodeScalars.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
                throw CLIError("\(option): give the name of an environment variable (letters, digits and _), never the secret itself")
            }
            let stream: String
            if let name {
                guard names.contains(name) else { throw CLIError("\(option): no stream address is named '\(TerminalText.plain(name))' (streams: \(names.joined(separator: ", ")))") }
                stream = name
            } else {
                guard let only = names.first else { throw CLIError("\(option): there is no stream address to take it") }
                guard names.count == 1 else { throw CLIError("\(option): say which stream, as NAME=\(TerminalText.plain(variable)) (streams: \(names.joined(separator: ", ")))") }
                stream = only
            }
            guard let value = environment[variable], !value.isEmpty else { throw CLIError("\(option): the \(what)'s variable \(TerminalText.plain(variable)) is not set") }
            values[stream] = value
        }
        return values
    }

    private static func unusedName(_ base: String, among taken: [String]) -> String {
        guard taken.contains(base) else { return base }
        return (2...).lazy.map { "\(base)-\($0)" }.first { !taken.contains($0) }!
    }
}
