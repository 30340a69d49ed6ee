/// The session's callers (the command line, tests) see the model's values through this module.
@_exported import CaptureModel
