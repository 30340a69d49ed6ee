/// An output's own rule for what it is connected to: the session checks what every connection must be
/// (its inputs and ports exist, one kind of media, not twice), and asks the output for the rest.
package protocol TakesConnections {
    /// Why this output refuses `connection` beside the connections it has (`taken`), or nil.
    func reasonCannotTake(_ connection: Connection, besides taken: [Connection]) -> String?
}
