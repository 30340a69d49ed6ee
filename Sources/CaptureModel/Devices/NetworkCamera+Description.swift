import Foundation

/// A camera's `url:`: a camera on the network, with what only such a camera takes.
///
///     cameras:
///       - name: hall
///         url: rtsp://viewer@192.0.2.10/stream1
///         password-env: HALL_PASSWORD    # the password from the environment: the file can be shared
///         latency: 300ms                 # default 200ms
///         delay: 120ms                   # the camera's own delay, placed back (default 0ms)
///         transport: tcp                 # RTSP only: automatic (default), tcp or udp
extension NetworkCamera {
    /// The keys only a network camera's entry takes, beside every camera's.
    static let descriptionKeys = ["password-env", "latency", "delay", "transport"]

    /// The camera the entry `name` describes: its `url` and the `fields` only such a camera takes.
    static func described(by url: YAMLReader, fields: [String: YAMLReader], name: String) throws -> NetworkCamera {
        var camera: NetworkCamera
        do { camera = try NetworkCamera(url: try url.string()) } catch let problem as NetworkCameraProblem {
            throw url.error("camera '\(name)': \(problem)")
        }
        if let variable = fields["password-env"] {
            let variableName = try variable.string()
            guard let value = ProcessInfo.processInfo.environment[variableName], !value.isEmpty else {
                throw variable.error("camera '\(name)': the password's variable \(variableName) is not set")
            }
            camera.password = value
        }
        if let latency = fields["latency"] { camera.latency = try latency.duration(in: SessionLimits.networkLatency, bare: .milliseconds) }
        if let delay = fields["delay"] { camera.delay = try delay.duration(in: SessionLimits.networkLatency, bare: .milliseconds) }
        if let transport = fields["transport"] {
            guard camera.kind == .rtsp else { throw transport.error("transport applies to an rtsp:// camera only") }
            camera.transport = try transport.choice(NetworkCamera.Transport.self)
        }
        return camera
    }
}
