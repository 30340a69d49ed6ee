import Foundation

/// Runs `body` with the variable `name` set in this process's environment, as a user's shell would set
/// it for pipcam (a stream key, a camera's password), and unset again after.
public func withEnvironment<T>(_ name: String, _ value: String, _ body: () throws -> T) rethrows -> T {
    setenv(name, value, 1)
    defer { unsetenv(name) }
    return try body()
}
