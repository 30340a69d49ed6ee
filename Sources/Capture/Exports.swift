/// The session's callers (the command line, tests) see through this module the model's values and the
/// services the graph offers beside the session: devices, cost, and the graph a configuration becomes.
@_exported import CaptureGraph
@_exported import CaptureModel
@_exported import LinuxIO
