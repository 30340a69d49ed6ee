/// What a running graph tells of its files for their uploads.
extension RunningGraph {
    /// `finished` hears of each file, or part, once it is finished; `keep` deletes only the parts
    /// `mayDelete` allows.
    package func watchFiles(finished: @escaping @Sendable (String) -> Void, mayDelete: @escaping @Sendable (String) -> Bool) {
        writer.finished.withValue { $0 = finished }
        writer.parts?.mayDelete.withValue { $0 = mayDelete }
    }

    /// What deletes the parts `keep` may now delete (one was uploaded): it holds on to the parts, so
    /// it goes on working once the graph has stopped and its last parts are sent.
    package var partsTidier: @Sendable () -> Void { { [parts = writer.parts] in parts?.tidy() } }
}
