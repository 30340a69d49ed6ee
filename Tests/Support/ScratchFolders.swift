import Foundation
import Locking
import XCTest

/// Removes the scratch folders a test made once it has passed; a failed test's stay, to be looked at.
/// Recordings are large: a full run made gigabytes of them before they were cleaned up.
final class ScratchFolders: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: ScratchFolders = {
        let folders = ScratchFolders()
        XCTestObservationCenter.shared.addTestObserver(folders)
        return folders
    }()

    private let folders = Locked<[String]>([])

    func made(_ path: String) {
        folders.withValue { $0.append(path) }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        let made = folders.withValue { made in
            defer { made = [] }
            return made
        }
        guard testCase.testRun?.hasSucceeded == true else { return }
        for path in made { try? FileManager.default.removeItem(atPath: path) }
    }
}
