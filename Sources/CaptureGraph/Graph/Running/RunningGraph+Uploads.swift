/// What a running graph tells of its files for their uploads.
extension RunningGraph {
    /// `finished` hears of each file, or part, once it is finished; `keep` deletes only the parts
    /// `mayDelete` allows.
    package func watchFiles(finished: @escaping @Sendable (String) -> Void, mayDelete: @escaping @Sendable (String) -> Bool) {
        writer.finished.withValue { $0 = finished }
        writer.parts?.mayDelete.withValue { $0 = mayDelete }
    }

    /// Deletes the parts `keep` may now delete (one was uploaded).
    package func tidyParts() { writer.parts?.tidy() }
}
