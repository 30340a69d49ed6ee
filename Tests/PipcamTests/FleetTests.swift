import Foundation
import PipcamTestSupport
import XCTest

/// Two room rigs on one machine, each in a network namespace of its own as if on a machine of its own,
/// run as `docs/fleet.md` has them: `pipcam serve` on the rig's address with the fleet's token, a stream to
/// the media server (nginx's RTMP), each part uploaded to object storage (moto, through rclone), and
/// Prometheus scraping both, the servers in a hub namespace the rigs reach over veth pairs.
final class FleetTests: XCTestCase {
    private func description(room: String, hub: String, rtmp: Int, store: ObjectStore) -> String {
        """
        preset: low
        frame-rate: 15
        cameras:
          - name: front
            synthetic: smpte
        microphones:
          - name: voice
            synthetic: 440
        output:
          file: unused.mkv
          segment: {time: 3s}
          upload: {command: "rclone copyto {file} \(ObjectStore.remote):\(store.bucket)/\(room)/{name}"}
          streams:
            - name: live
              url: rtmp://\(hub):\(rtmp)/live/\(room)

        """
    }

    func testTwoRigsEachInANamespaceStreamUploadAndAreScraped() throws {
        guard getuid() == 0 else { throw XCTSkip("network namespaces need root") }
        let folder = try Paths.scratch("fleet")
        let network = try TestNetwork(rigs: 2)
        defer { network.remove() }
        let store = try ObjectStore(folder: folder, launcher: network.hubLauncher)
        let media = try RTMPServer(folder: "\(folder)/media", address: "0.0.0.0", launcher: network.hubLauncher)
        // The fleet's one token, put on every rig before its first start (docs/fleet.md).
        let home = "\(folder)/home"
        try FileManager.default.createDirectory(atPath: "\(home)/.config/pipcam", withIntermediateDirectories: true)
        let token = "fleet-token-\(UUID().uuidString)"
        XCTAssertTrue(FileManager.default.createFile(atPath: "\(home)/.config/pipcam/web-token", contents: Data(token.utf8), attributes: [.posixPermissions: 0o600]))
        try Data(token.utf8).write(to: URL(fileURLWithPath: "\(folder)/prometheus-token"))
        let prometheus = try PrometheusServer(scraping: network.rigs.map { "\($0.address):8080" }, folder: folder,
                                              tokenFile: "\(folder)/prometheus-token", launcher: network.hubLauncher)

        var rigs: [(room: String, folder: String, serve: RunningCommand, control: ControlClient)] = []
        defer { for rig in rigs { rig.serve.signal(SIGKILL) } }
        for (index, rig) in network.rigs.enumerated() {
            let room = "room-\(index + 1)"
            let recordings = "\(folder)/\(room)"
            try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
            try description(room: room, hub: rig.hubAddress, rtmp: media.port, store: store).write(toFile: "\(folder)/\(room).yaml", atomically: true, encoding: .utf8)
            let environment = store.rcloneEnvironment(reachedAt: rig.hubAddress).merging(["HOME": home, "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "\(folder)/cache"]) { $1 }
            let serve = try Command.start(rig.launcher + [Paths.pipcam, "serve", "--pipeline", "\(folder)/\(room).yaml", "--folder", recordings,
                                                          "--listen", "\(rig.address):8080", "--control", "\(folder)/\(room).sock"],
                                          environment: environment)
            rigs.append((room, recordings, serve, try ControlClient(path: "\(folder)/\(room).sock", timeout: 60)))
        }
        for rig in rigs {
            let answer = try rig.control.send(#"{"command":"record"}"#)
            XCTAssertEqual(answer["ok"] as? Bool, true, "\(rig.room): \(answer)")
        }
        for rig in rigs { try rig.control.waitUntilElapsed(7) }
        // Prometheus on the hub scrapes both rigs, through the token, while they record.
        let targets = Set(network.rigs.map { "\($0.address):8080" })
        try waitFor(within: 60, "Prometheus to scrape both rigs recording") {
            let recording = (try? prometheus.values("pipcam_recording")) ?? []
            return Set(recording.filter { $0.value == 1 }.compactMap { $0.labels["instance"] }) == targets
        }
        for rig in rigs {
            let answer = try rig.control.send(#"{"command":"stop"}"#)
            XCTAssertNotNil(answer["finished"] as? String, "\(rig.room): \(answer)")
        }
        // Every part in the bucket, each rig in its folder, the same bytes.
        for rig in rigs {
            try waitFor(within: 90, "\(rig.room)'s uploads") {
                let uploads = (try? rig.control.send(#"{"command":"status"}"#))?["uploads"] as? [String: Any]
                return uploads?["pending"] as? Int == 0 && (uploads?["done"] as? Int ?? 0) >= 2
            }
        }
        let objects = try store.objects()
        for rig in rigs {
            let parts = try FileManager.default.contentsOfDirectory(atPath: rig.folder).filter { $0.hasSuffix(".mkv") }
            XCTAssertGreaterThanOrEqual(parts.count, 2, "\(rig.room): \(parts)")
            for part in parts {
                let sum = String(try Command.run(["md5sum", "\(rig.folder)/\(part)"]).output.prefix(32))
                XCTAssertEqual(objects["\(rig.room)/\(part)"]?.md5, sum, "\(rig.room)/\(part): \(objects.keys.sorted())")
            }
        }
        for rig in rigs {
            rig.serve.signal(SIGTERM)
            XCTAssertEqual(rig.serve.wait().status, 0, rig.room)
        }
        // Each room's stream reached the media server, and plays.
        media.stop()
        for rig in rigs {
            let stream = media.recordedFile(key: rig.room)
            XCTAssertGreaterThan(try MediaProbe(path: stream).duration ?? 0, 3, "\(rig.room)'s stream")
            XCTAssertEqual(try MediaProbe.decodeErrors(path: stream), "", rig.room)
        }
    }
}
