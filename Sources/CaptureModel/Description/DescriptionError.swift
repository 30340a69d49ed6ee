/// A mistake in a pipeline description, pointing at the file, line, column and key, with what is allowed.
public struct DescriptionError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int
    public let column: Int
    public let key: String
    public let message: String

    package init(file: String, line: Int, column: Int, key: String, message: String) {
        (self.file, self.line, self.column, self.key, self.message) = (file, line, column, key, message)
    }

    public var description: String { "\(file):\(line):\(column): \(key): \(message)" }
}

/// Where a value stands in a description file, for errors found after parsing (devices, formats).
public struct SourceLocation: Sendable {
    public let file: String
    public let line: Int
    public let column: Int
    public let key: String

    public func error(_ message: String) -> DescriptionError {
        DescriptionError(file: file, line: line, column: column, key: key, message: message)
    }
}
