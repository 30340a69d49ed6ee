/// The session's callers (the command line, tests) see through this module the model's values and the
/// machine's readers beside it (devices' files, locks, Matroska headers and repair). The graph stays
/// behind the session: what the command line needs of it (devices, cost, preview, export) the session's
/// `Machine` folder offers.
@_exported import CaptureModel
@_exported import LinuxIO
