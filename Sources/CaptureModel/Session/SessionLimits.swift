/// The bounds of every number a session takes. The description reader, validation and the messages that
/// name a bound all read them here, so a value one accepts the other never refuses.
public enum SessionLimits {
    /// Microphones a session records (each on its own track, and the mix).
    public static let microphones = 2
    /// Controls a description sets on one camera (a webcam has a few dozen).
    public static let controlsPerCamera = 64
    /// Pictures a second, of a camera or of the recording.
    public static let frameRate: ClosedRange<Double> = 1...120
    /// A camera mode's size (8K at most).
    public static let cameraWidth: ClosedRange<Int> = 16...7680
    public static let cameraHeight: ClosedRange<Int> = 16...4320
    /// A region of a screen, in the screen's pixels: several monitors side by side make a wide screen.
    public static let screenCoordinate: ClosedRange<Int> = 0...16384
    public static let screenSpan: ClosedRange<Int> = 16...16384
    /// A raw clip's picture, each side in pixels: what GStreamer's YUV4MPEG2 reader takes.
    public static let clipSide: ClosedRange<Int> = 1...16384
    /// The inset camera's width and the margin around it, as fractions of the picture's width.
    public static let insetSize: ClosedRange<Double> = 0.05...0.9
    public static let margin: ClosedRange<Double> = 0...0.4
    /// Bitrates in kbit/s.
    public static let videoBitrate: ClosedRange<Int> = 100...100_000
    public static let audioBitrate: ClosedRange<Int> = 6...510
    /// A recording's length in seconds when it stops by itself: a limit shorter than a picture would stop
    /// the file before anything reaches it, and the start would wait for the muxer in vain.
    public static let recordingSeconds: ClosedRange<Double> = 0.1...86_400
    /// Characters in an input's name, and in a label drawn on the picture: more would not fit a picture,
    /// and drawing a label of a hundred thousand characters stalls the camera it is drawn on.
    public static let nameLength = 64
    public static let labelLength = 200
    /// A part of a segmented recording: at least a second (a key frame or two) and a megabyte, at most a day.
    public static let segmentSeconds: ClosedRange<Double> = 1...86_400
    public static let segmentBytes: Int64 = 1 << 20
    /// Parts a ring recording keeps, by count.
    public static let keptParts: ClosedRange<Int> = 1...100_000
    /// Seconds without a frame (or sound) before a device counts as lost: shorter would take a busy
    /// moment for a loss; longer leaves a frozen picture in the recording for that long.
    public static let deviceTimeoutSeconds: ClosedRange<Double> = 0.5...60
    /// The longest device a description names: Linux's PATH_MAX.
    public static let devicePathLength = 4096
    public static var deviceTimeout: ClosedRange<Duration> { .seconds(deviceTimeoutSeconds.lowerBound) ... .seconds(deviceTimeoutSeconds.upperBound) }
    /// How long a network camera's pictures may take to their place in the recording (`latency:`), and
    /// how long the camera itself takes to send them (`delay:`).
    public static let networkLatency: ClosedRange<Duration> = .zero ... .seconds(5)
    /// The preview window's width in pixels.
    public static let previewWidth: ClosedRange<Int> = 64...3840

    /// "100…100000", as the messages state a bound.
    public static func text<T>(_ range: ClosedRange<T>) -> String { "\(range.lowerBound)…\(range.upperBound)" }
}
