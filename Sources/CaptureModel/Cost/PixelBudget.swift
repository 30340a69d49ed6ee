import Foundation

/// How fast this machine does each kind of picture work, in pixels per second of one core's time.
/// Measured once by `BudgetCalibration`; the cost model divides the session's pixel rates by these.
///
/// CPU time, not elapsed time, is measured: it hardly changes with what else runs at that moment, so a
/// measurement taken while the machine is busy still describes the machine.
public struct PixelBudget: Sendable, Hashable, Codable {
    /// Drawing a test pattern with its clock and composing it, in the format the graph lets the two
    /// agree on (synthetic cameras; composing is counted here, not in `composite`).
    public var generate: Double
    /// Decoding JPEG (MJPEG cameras; clips count the same).
    public var decode: Double
    /// Converting, scaling and blending into the picture, per pixel in and out.
    public var composite: Double
    /// H.264 with x264 as pipcam tunes it (veryfast, zerolatency).
    public var encode: Double
    /// Cores the work can spread over.
    public var cores: Int
    /// When it was measured, on which GStreamer and with which encoder settings, to tell an old
    /// measurement from a new one.
    public var measured: Date?
    public var gstreamer: String?
    public var encoder: String?

    public init(generate: Double, decode: Double, composite: Double, encode: Double, cores: Int,
                measured: Date? = nil, gstreamer: String? = nil, encoder: String? = nil) {
        self.generate = generate
        self.decode = decode
        self.composite = composite
        self.encode = encode
        self.cores = cores
        self.measured = measured
        self.gstreamer = gstreamer
        self.encoder = encoder
    }

    /// The share of all cores the capture pipeline can count on; audio, muxing, the file and the rest
    /// of the system need the remainder.
    public static let usableShare = 0.8
}
