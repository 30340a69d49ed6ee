import CaptureModel
import GStreamer

/// One place decides which H.264 encoder records and how it is tuned.
enum EncoderChoice {
    /// Hardware encoders in order of preference (VA-API, then V4L2 memory-to-memory on ARM boards).
    static let hardwareFactories: [ElementFactory] = [.vah264enc, .vah264lpenc, .v4l2h264enc]
    /// Those, and the ones tried only when named in `PIPCAM_HARDWARE_ENCODERS` (`HardwareEncoders`):
    /// OpenMAX IL through libav, for boards that encode that way and nowhere else.
    static let namedHardwareFactories: [ElementFactory] = hardwareFactories + [.openMAXH264Encoder]

    /// The first hardware encoder that starts on this machine (`HardwareEncoders`), if any.
    static func hardwareEncoder() -> ElementFactory? {
        HardwareEncoders.trial().chosen
    }

    /// A hardware encoder's settings: VA-API's take the bitrate and key frames; the others take their
    /// settings from the driver.
    static func settings(of factory: ElementFactory, bitrate: Int, keyInterval: Int) -> [(String, PropertyValue)] {
        switch factory {
        case .vah264enc, .vah264lpenc: [("bitrate", .uint(UInt64(bitrate))), ("key-int-max", .uint(UInt64(keyInterval))), ("b-frames", .uint(0))]
        default: []
        }
    }

    /// The encoder element, tuned for live capture: no B-frames or look-ahead (x264 zerolatency), a preset
    /// fast enough for two cores, and a key frame every two seconds so a cut file still seeks well (every
    /// second when live photos cut clips out of the stream).
    static func encoder(_ choice: MovieFileOutput.Encoder, bitrate: Int, frameRate: Double,
                        keyFrameSeconds: Double = 2, speed: MovieFileOutput.EncoderSpeed = .veryfast) -> (factory: ElementFactory, properties: [(String, PropertyValue)]) {
        let keyInterval = max(1, Int((frameRate * keyFrameSeconds).rounded()))
        let hardware = choice == .software ? nil : hardwareEncoder()
        switch hardware {
        case let factory?:
            return (factory, settings(of: factory, bitrate: bitrate, keyInterval: keyInterval))
        case nil:
            return (.x264enc, [
                ("tune", .string("zerolatency")), ("speed-preset", .string(speed.rawValue)),
                ("bitrate", .uint(UInt64(bitrate))), ("key-int-max", .uint(UInt64(keyInterval))),
            ])
        }
    }
}
