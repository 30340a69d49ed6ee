/// A failure reported to the user as one line, with a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
