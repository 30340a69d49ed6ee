import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The object store the upload tests send finished parts to: moto's S3 server on 127.0.0.1, reached through
/// rclone as a rig reaches its own (`rclone copyto {file} store:bucket/{host}/{name}`). moto comes from PyPI:
/// `scripts/install-deps --tests` puts it in a virtual environment in the user's cache (`motoServer`).
///
/// moto keeps its buckets in memory only, and 5.2.1 has no option to keep them: a server started again has
/// lost every upload, so there is no restart. An endpoint that goes away for a while is `freeze`: the stopped
/// process keeps everything, the kernel still accepts connections for it, and rclone waits for its timeout.
/// A request that reached the frozen server whole is carried out at SIGCONT, even though rclone gave up on
/// it: a PUT sent while frozen may leave a whole object behind an upload that failed.
///
/// The bucket is versioned: in an unversioned one moto 5.2.1 answers a multipart upload (rclone's, for files
/// over its 200 MiB upload_cutoff) with version id "null", rclone then asks for `?versionId=null`, and moto
/// answers 400, failing the upload.
public final class ObjectStore: @unchecked Sendable {
    /// What it runs, for the package test: rclone, and Debian's venv module (python3-venv), without which
    /// Debian's Python makes no virtual environment for moto. moto itself is from PyPI: no package owns it.
    public static var programs: [String] {
        let ensurepip = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).filter { $0.hasPrefix("python3.") }
            .map { "/usr/lib/\($0)/ensurepip/__init__.py" }
            .first { FileManager.default.fileExists(atPath: $0) } ?? "/usr/lib/python3/ensurepip/__init__.py"
        return ["rclone", ensurepip]
    }

    /// moto's server where `scripts/install-deps --tests` installs it: `${XDG_CACHE_HOME:-$HOME/.cache}/pipcam/moto`.
    public static var motoServer: String {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(environment["HOME"] ?? NSHomeDirectory())/.cache"
        return "\(cache)/pipcam/moto/bin/moto_server"
    }

    /// The store's secret key: the tests check it never shows in what pipcam prints or logs.
    public static let secretKey = "s3cr3t-k3y-0f-th3-st0r3"

    /// The rclone remote `rcloneEnvironment` defines.
    public static let remote = "store"

    public let folder: String
    public let port: Int
    public let bucket: String
    private let command = Locked<RunningCommand?>(nil)
    /// `ip netns exec NAME` when it runs in a network namespace of a test's own: its own rclone runs there.
    private let launcher: [String]

    /// Starts moto on a free port, waits until it listens, and makes the bucket. moto's log (one line per
    /// request) is written into `folder` when it stops. With a `launcher`, it listens on every address of
    /// that namespace.
    public init(folder: String, bucket: String = "bucket", launcher: [String] = []) throws {
        self.folder = folder
        self.bucket = bucket
        self.launcher = launcher
        let port = freeLocalPort()
        self.port = port
        guard FileManager.default.isExecutableFile(atPath: Self.motoServer) else {
            throw ProbeError("moto is not installed (\(Self.motoServer)): run scripts/install-deps --tests")
        }
        let started = try Command.start(launcher + [Self.motoServer, "-H", launcher.isEmpty ? "127.0.0.1" : "0.0.0.0", "-p", String(port)], directory: folder)
        // Python imports boto3 and Flask before it listens: 0.4 s on an idle machine, at times 3 s, and more
        // on a busy one.
        try MediaServers.wait(for: "moto's S3 server on 127.0.0.1:\(port)", of: started, within: 30) {
            MediaServers.holds(started, port: port, udp: false)
        }
        command.withValue { $0 = started }
        do {
            // no_check_bucket (below) makes `mkdir` of a bucket do nothing, and says nothing about it.
            try rclone(["mkdir", "--s3-no-check-bucket=false", "\(Self.remote):\(bucket)"])
            try rclone(["backend", "versioning", "\(Self.remote):\(bucket)", "Enabled"])
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// What rclone needs to reach the bucket, for pipcam (whose upload command inherits its environment) as
    /// for the rclone this helper runs:
    /// - the remote `store`, by RCLONE_CONFIG_STORE_* variables alone: RCLONE_CONFIG=/dev/null reads no
    ///   user's config file.
    /// - no_check_bucket: otherwise rclone makes the bucket before each upload, and an upload to a bucket
    ///   that is gone would succeed.
    /// - AWS_CA_BUNDLE empty: while it names a file, rclone 1.60 opens no S3 remote at all ("unable to load
    ///   custom CA bundle, HTTPClient's transport unsupported type"); an empty one counts as unset.
    /// - A failure that is quick, as pipcam does its own retrying: one try, 2 s timeouts. rclone still sends
    ///   a request up to four times (its S3 backend tries twice, the AWS SDK in each try twice): with the
    ///   server frozen an upload fails after about 8 s, refused (no server) after 0.2 s. Defaults, 4.5 minutes.
    public var rcloneEnvironment: [String: String] { rcloneEnvironment(reachedAt: "127.0.0.1") }

    /// The same, for an rclone that reaches the store at `address` (from another network namespace).
    public func rcloneEnvironment(reachedAt address: String) -> [String: String] {
        let prefix = "RCLONE_CONFIG_\(Self.remote.uppercased())_"
        return [
            "RCLONE_CONFIG": "/dev/null",
            prefix + "TYPE": "s3", prefix + "PROVIDER": "Other", prefix + "ENDPOINT": "http://\(address):\(port)",
            prefix + "ACCESS_KEY_ID": "pipcam", prefix + "SECRET_ACCESS_KEY": Self.secretKey,
            prefix + "REGION": "us-east-1", prefix + "FORCE_PATH_STYLE": "true", prefix + "NO_CHECK_BUCKET": "true",
            "AWS_CA_BUNDLE": "",
            "RCLONE_RETRIES": "1", "RCLONE_LOW_LEVEL_RETRIES": "1", "RCLONE_CONTIMEOUT": "2s", "RCLONE_TIMEOUT": "2s",
        ]
    }

    /// An upload command as a rig's description has it, into a folder per host.
    public var uploadCommand: String { "rclone copyto {file} \(Self.remote):\(bucket)/{host}/{name}" }

    /// Every object in the bucket by its key ("HOST/talk.mkv"): its size and MD5 as rclone lists them (the
    /// ETag of a plain upload, the MD5 rclone stores beside a multipart one). Throws, after about 8 s, while
    /// the server is frozen.
    public func objects() throws -> [String: (bytes: Int, md5: String)] {
        let listed = try rclone(["lsjson", "--recursive", "--files-only", "--hash-type", "md5", "\(Self.remote):\(bucket)"])
        let entries = try JSONDecoder().decode([ListedObject].self, from: Data(listed.utf8))
        return Dictionary(entries.map { ($0.path, (bytes: $0.size, md5: $0.hashes?["md5"] ?? "")) }, uniquingKeysWith: { _, last in last })
    }

    /// Stops moto in its tracks (SIGSTOP) or lets it go on (SIGCONT): an endpoint that does not answer,
    /// its buckets kept.
    public func freeze(_ frozen: Bool) {
        command.value?.signal(frozen ? SIGSTOP : SIGCONT)
    }

    /// Ends moto (thawed first: a stopped process ends at nothing but SIGKILL) and writes its log into `folder`.
    public func stop() {
        let running = command.withValue { command in
            defer { command = nil }
            return command
        }
        guard let running else { return }
        running.signal(SIGCONT)
        let result = running.end(with: SIGTERM)
        try? (result.output + result.error).write(toFile: "\(folder)/moto.log", atomically: true, encoding: .utf8)
    }

    @discardableResult
    private func rclone(_ arguments: [String]) throws -> String {
        let result = try Command.run(launcher + ["rclone"] + arguments, environment: rcloneEnvironment)
        guard result.status == 0 else {
            throw ProbeError("rclone \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.error)")
        }
        return result.output
    }
}

/// An object as `rclone lsjson --hash` lists it.
private struct ListedObject: Decodable {
    let path: String
    let size: Int
    let hashes: [String: String]?

    enum CodingKeys: String, CodingKey { case path = "Path", size = "Size", hashes = "Hashes" }
}
