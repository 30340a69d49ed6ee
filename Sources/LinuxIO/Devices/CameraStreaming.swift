import CV4L2
import CaptureModel

/// What V4L2 says of a camera another program may be streaming from: whether it is, and in which mode.
public enum CameraStreaming {
    /// Whether some program streams from the camera now (V4L2 lets one at a time capture).
    public static func isBusy(_ path: String) -> Bool { pc_v4l2_capture_is_busy(path) == 1 }

    /// The mode the camera streams in now, in GStreamer's names, or nil when V4L2 does not say or pipcam
    /// does not know the pixel format's name.
    public static func currentMode(of path: String) -> VideoFormat? {
        var fourcc: UInt32 = 0, width: UInt32 = 0, height: UInt32 = 0, numerator: UInt32 = 0, denominator: UInt32 = 0
        guard pc_v4l2_current_mode(path, &fourcc, &width, &height, &numerator, &denominator) == 0, numerator > 0,
              let format = pixelFormatNames[String(decoding: withUnsafeBytes(of: fourcc.littleEndian) { Array($0) }, as: UTF8.self)] else { return nil }
        return VideoFormat(pixelFormat: format, width: Int(width), height: Int(height), frameRates: [Double(denominator) / Double(numerator)])
    }

    /// V4L2 fourccs of the formats cameras commonly stream in, and GStreamer's names for them.
    static let pixelFormatNames = ["YUYV": "YUY2", "UYVY": "UYVY", "YVYU": "YVYU", "NV12": "NV12", "NV21": "NV21",
                                   "YU12": "I420", "YV12": "YV12", "MJPG": "MJPG", "RGB3": "RGB", "BGR3": "BGR", "GREY": "GRAY8"]
}
