import CaptureModel
import Foundation
import Locking

/// The files one recording goes on in when a structural change (another camera, another layout kind)
/// starts a new graph: "talk.mkv", then "talk-2.mkv", "talk-3.mkv", each the next name not taken.
final class SegmentNames: Sendable {
    private let state = Locked<(base: String?, number: Int)>((nil, 1))

    /// A recording starts at `path`, the first of its files.
    func begin(at path: String?) {
        state.withValue { $0 = (path, 1) }
    }

    /// The next free numbered name when the new graph would write to the file the previous one wrote;
    /// nil when it writes elsewhere (which then begins a new series).
    func path(for path: String?, after previous: String?) -> String? {
        guard let path else { return nil }
        return state.withValue { state in
            guard path == previous, let base = state.base else {
                state = (path, 1)
                return nil
            }
            var numbered: String
            repeat {
                state.number += 1
                numbered = MovieFileOutput.numberedPath(base, state.number)
            } while FileManager.default.fileExists(atPath: numbered)
            return numbered
        }
    }
}
