import Foundation
import PipcamTestSupport
import XCTest

/// Uploads to a real S3 endpoint (moto on 127.0.0.1) through rclone, as a room rig sends its parts to
/// object storage: every part arrives with the same bytes through an outage, `keep` never deletes a
/// part not yet sent, and a pipcam killed and started again sends what was pending.
final class UploadTests: XCTestCase {
    private let description = "cameras:\n  - name: flash\n    synthetic: sync\nmicrophones:\n  - name: beeps\n    synthetic: sync\n"

    private func md5(_ path: String) throws -> String {
        String(try Command.run(["md5sum", path]).output.prefix(32))
    }

    /// The recording's files in `folder`, in order: `talk.mkv`, `talk-2.mkv`, ….
    private func parts(in folder: String, named base: String = "talk") throws -> [String] {
        func number(_ name: String) -> Int { Int(name.dropFirst(base.count + 1).dropLast(4)) ?? 1 }
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(base) && $0.hasSuffix(".mkv") }.sorted { number($0) < number($1) }
    }

    private func host() throws -> String {
        try Command.run(["hostname"]).output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").first.map(String.init) ?? ""
    }

    /// Every local file in the bucket under the host's folder, with the same size and MD5.
    private func assertInBucket(_ names: [String], folder: String, store: ObjectStore, file: StaticString = #filePath, line: UInt = #line) throws {
        let objects = try store.objects()
        let host = try host()
        for name in names {
            guard let object = objects["\(host)/\(name)"] else {
                XCTFail("\(name) is not in the bucket: \(objects.keys.sorted())", file: file, line: line)
                continue
            }
            let path = "\(folder)/\(name)"
            XCTAssertEqual(object.bytes, try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, name, file: file, line: line)
            XCTAssertEqual(object.md5, try md5(path), name, file: file, line: line)
        }
    }

    /// `talk.mkv` recorded in parts of 3 s (with `options`) in a folder of its own, uploading to an endpoint
    /// that is away from the start.
    private func recordWhileTheStoreIsAway(_ name: String, _ options: [String] = []) throws -> (folder: String, store: ObjectStore, recording: RunningCommand) {
        let folder = try Paths.scratch(name)
        try description.write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let store = try ObjectStore(folder: folder)
        store.freeze(true)
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/talk.mkv", "--pipeline", "\(folder)/sync.yaml", "--segment", "3s"] + options
                                          + ["--upload-command", store.uploadCommand, "--control", "\(folder)/control.sock"], environment: store.rcloneEnvironment)
        return (folder, store, recording)
    }

    func testEveryPartArrivesWithTheSameBytesThroughAnOutage() throws {
        let folder = try Paths.scratch("uploads")
        try description.write(toFile: "\(folder)/sync.yaml", atomically: true, encoding: .utf8)
        let store = try ObjectStore(folder: folder)
        // The secret key in the command as well, where pipcam must keep it out of everything it shows.
        let command = store.uploadCommand + " --s3-secret-access-key=\(ObjectStore.secretKey)"
        let recording = try Command.start([Paths.pipcam, "record", "\(folder)/talk.mkv", "--pipeline", "\(folder)/sync.yaml", "--segment", "3s",
                                           "--duration", "12", "--upload-command", command, "--control", "\(folder)/control.sock",
                                           "--events", "\(folder)/events.jsonl"], environment: store.rcloneEnvironment)
        let control = try ControlClient(path: "\(folder)/control.sock")
        // The endpoint goes away for five seconds once the first part has been sent.
        try control.waitUntilElapsed(4.5)
        store.freeze(true)
        try control.waitUntilElapsed(9.5)
        // The part that ended while the endpoint was away waits for it.
        let during = try control.send(#"{"command":"status"}"#)["uploads"] as? [String: Any]
        XCTAssertGreaterThanOrEqual(during?["pending"] as? Int ?? 0, 1, "\(String(describing: during))")
        store.freeze(false)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        let names = try parts(in: folder)
        XCTAssertEqual(names.count, 4, "twelve seconds in parts of three: \(names)")
        try assertInBucket(names, folder: folder, store: store)
        // Each part's upload in the events.
        let uploads = try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["event"] as? String == "upload" }
        XCTAssertEqual(uploads.filter { $0["what"] as? String == "done" }.count, 4, "\(uploads)")
        let shown = result.output + result.error + (try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8))
        XCTAssertFalse(shown.contains(ObjectStore.secretKey), "the secret key is never shown")
        XCTAssertTrue(result.error.contains("every file is sent"), result.error)
        XCTAssertTrue(result.output.contains("uploads "), result.output)
    }

    /// `--keep 2` with the endpoint away: every part stays until it is sent, then the oldest go.
    func testKeepNeverDeletesAPartNotYetSent() throws {
        let (folder, store, recording) = try recordWhileTheStoreIsAway("uploads-keep", ["--keep", "2", "--duration", "15"])
        let control = try ControlClient(path: "\(folder)/control.sock")
        // Three parts ended and none sent: keep 2 would have deleted the oldest, but each waits to be sent.
        try waitFor(within: 30, "three parts waiting") {
            ((try? control.send(#"{"command":"status"}"#))?["uploads"] as? [String: Any])?["pending"] as? Int ?? 0 >= 3
        }
        let kept = try parts(in: folder)
        XCTAssertEqual(Array(kept.prefix(3)), ["talk.mkv", "talk-2.mkv", "talk-3.mkv"], "\(kept)")
        let status = try control.send(#"{"command":"status"}"#)
        XCTAssertEqual((status["uploads"] as? [String: Any])?["done"] as? Int, 0, "\(status)")
        // Their bytes now, to compare with the bucket's once they are sent and deleted.
        let sums = try Dictionary(uniqueKeysWithValues: kept.map { ($0, try md5("\(folder)/\($0)")) })
        store.freeze(false)
        let result = recording.wait()
        XCTAssertEqual(result.status, 0, result.error)
        let objects = try store.objects()
        let host = try host()
        for (name, sum) in sums where name != kept.last && kept.firstIndex(of: name)! < 3 {
            XCTAssertEqual(objects["\(host)/\(name)"]?.md5, sum, "\(name) was sent whole before keep deleted it")
        }
        XCTAssertEqual(objects.keys.filter { $0.hasPrefix("\(host)/talk") }.count, 5, "fifteen seconds in parts of three: \(objects.keys.sorted())")
        XCTAssertLessThanOrEqual(try parts(in: folder).count, 3, "keep deleted the oldest once they were sent")
    }

    /// Killed with parts waiting for the endpoint: the next pipcam in the folder sends them, and the part
    /// the kill cut off, once repaired.
    func testAPipcamStartedAgainSendsWhatWasPending() throws {
        let (folder, store, first) = try recordWhileTheStoreIsAway("uploads-restart")
        try ControlClient(path: "\(folder)/control.sock").waitUntilElapsed(7.5)
        first.signal(SIGKILL)
        _ = first.wait()
        XCTAssertTrue(try String(contentsOfFile: "\(folder)/.pipcam-uploads", encoding: .utf8).contains("talk-2.mkv"), "two parts pending")
        store.freeze(false)
        let second = try Command.run([Paths.pipcam, "record", "\(folder)/next.mkv", "--pipeline", "\(folder)/sync.yaml", "--duration", "2",
                                      "--upload-command", store.uploadCommand], environment: store.rcloneEnvironment)
        XCTAssertEqual(second.status, 0, second.error)
        XCTAssertTrue(second.error.contains("repaired an unfinished recording"), second.error)
        try assertInBucket(["talk.mkv", "talk-2.mkv", "talk-3.mkv", "next.mkv"], folder: folder, store: store)
        XCTAssertEqual(UploadJournalLines.pending(in: folder), [], "nothing left pending")
    }
}

/// What `.pipcam-uploads` says is still pending, read as the tests see it.
enum UploadJournalLines {
    static func pending(in folder: String) -> [String] {
        guard let text = try? String(contentsOfFile: "\(folder)/.pipcam-uploads", encoding: .utf8) else { return [] }
        var pending: [String] = []
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String] else { continue }
            if let file = object["pending"] { pending.append(file) }
            if let file = object["done"] { pending.removeAll { $0 == file } }
        }
        return pending
    }
}
