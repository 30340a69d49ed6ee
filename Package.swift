// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "pipcam",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pipcam", targets: ["pipcam"]),
        .library(name: "GStreamer", targets: ["GStreamer"]),
        .library(name: "CaptureModel", targets: ["CaptureModel"]),
        .library(name: "LinuxIO", targets: ["LinuxIO"]),
        .library(name: "CaptureGraph", targets: ["CaptureGraph"]),
        .library(name: "Capture", targets: ["Capture"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Layer 1: the C API, with macros and variadic calls shimmed as inline functions.
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 gstreamer-audio-1.0 gstreamer-pbutils-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        // The V4L2 ioctls pipcam needs (capture check, bus info, orientation, controls).
        .systemLibrary(name: "CV4L2"),
        // GIO's D-Bus client, for the desktop's screen-sharing portal.
        .systemLibrary(name: "CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // The one element pipcam adds to GStreamer, in C: MJPEG decoded at 1/2, 1/4 or 1/8 of its size through
        // libjpeg-turbo's scaled inverse DCT, for a camera shown smaller than it sends.
        .target(name: "CScaledJPEG", dependencies: ["CGStreamer"], linkerSettings: [.linkedLibrary("jpeg")]),
        // pipcam's own logic in C: the pad probes that run for every buffer (frame grid, pause gate, sync
        // signals, timing) and their state. `make sanitize` builds and tests it under ASan and UBSan.
        .target(name: "CPipcamGst", dependencies: ["CGStreamer"], linkerSettings: [.linkedLibrary("m")]),
        // Shared state behind a lock, and blocking waits kept off Swift's cooperative threads: used by every layer.
        .target(name: "Locking"),
        // Layer 2: a thin, safe Swift wrapper of GStreamer, and of the desktop portal that hands it a screen.
        .target(name: "GStreamer", dependencies: ["CGStreamer", "CGio", "CPipcamGst", "CScaledJPEG", "Locking"]),
        // Beside the layers: the capture model as values (configuration, devices, layout, outputs, cost,
        // pressure, throttle, descriptions). It never imports GStreamer, so it builds and tests without it.
        .target(name: "CaptureModel", dependencies: ["Locking", .product(name: "Yams", package: "Yams")]),
        // The machine, read and written into the model's values: V4L2 ioctls (capture check, controls),
        // udev's links, who holds a device (/proc), the file while it is written (locked, synced), and a
        // cut-off Matroska file ended in place.
        .target(name: "LinuxIO", dependencies: ["CaptureModel", "CV4L2", "Locking"]),
        // Layer 3: the graph a configuration becomes (plan, builder, assembler, running graph, photos,
        // preview), and what else runs GStreamer (devices, the machine's measurement, analysis taps).
        .target(name: "CaptureGraph", dependencies: ["CaptureModel", "GStreamer", "LinuxIO", "Locking"]),
        // Layer 4: the capture session, on the graph and the model; it never imports GStreamer.
        .target(name: "Capture", dependencies: ["CaptureGraph", "CaptureModel", "LinuxIO", "Locking"]),
        // Layer 5, beside the command line: the web page and its API (HTTP, a WebSocket, Prometheus's
        // metrics) and the control socket, on one NIO stack, on a running session. It knows the session,
        // never the graph; the commands it carries are the command line's, handed to it as one function.
        .target(
            name: "WebRemote",
            dependencies: ["Capture", "Locking",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "Prometheus", package: "swift-prometheus")]
        ),
        // Layer 5: the command line.
        .executableTarget(
            name: "pipcam",
            dependencies: ["Capture", "WebRemote", "Locking", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // What the tests share: running commands, the smallest full session, and reading recordings back
        // with ffprobe and ffmpeg.
        .target(name: "PipcamTestSupport", dependencies: ["Capture", "Locking"], path: "Tests/Support"),
        // The other end of the sync camera and microphone: beeps for a loopback sound card, and the offset
        // between picture and sound read from a recording (the tests' `SyncOffsets`), for `bench/soak`.
        .executableTarget(name: "sync-signals", dependencies: ["GStreamer", "PipcamTestSupport"], path: "Tests/SyncSignals"),
        // Pure code in seconds, without running a pipeline: `make unit`.
        .testTarget(name: "UnitTests", dependencies: ["pipcam", "Capture", "CaptureGraph", "CaptureModel", "LinuxIO", "Locking", "PipcamTestSupport", "WebRemote"],
                    exclude: ["Golden"]),
        .testTarget(name: "GStreamerTests", dependencies: ["GStreamer", "Locking"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "CaptureGraph", "CaptureModel", "LinuxIO", "Locking", "PipcamTestSupport"]),
        .testTarget(name: "PipcamTests", dependencies: ["pipcam", "Capture", "CaptureGraph", "CaptureModel", "LinuxIO", "PipcamTestSupport"],
                    exclude: ["HostileDescriptions"]),
    ],
    swiftLanguageModes: [.v6]
)
