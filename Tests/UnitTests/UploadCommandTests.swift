@testable import CaptureModel
@testable import LinuxIO
import Foundation
import PipcamTestSupport
import XCTest

/// The upload command as written, filled for a file, and kept secret where it must be; the journal of
/// pending uploads.
final class UploadCommandTests: XCTestCase {
    func testTheCommandIsSplitAsAShellWouldAndFilledWordByWord() throws {
        let command = try UploadCommand(#"rclone copyto {file} "store:bucket/{host}/{name}" --header 'X-Room: A 1' a\ b"#)
        XCTAssertEqual(command.words, ["rclone", "copyto", "{file}", "store:bucket/{host}/{name}", "--header", "X-Room: A 1", "a b"])
        // A hostile name stays one argument: nothing is run by a shell.
        XCTAssertEqual(command.arguments(file: "/rec/talk $(rm -rf ~)'.mkv", host: "room-4"),
                       ["rclone", "copyto", "/rec/talk $(rm -rf ~)'.mkv", "store:bucket/room-4/talk $(rm -rf ~)'.mkv", "--header", "X-Room: A 1", "a b"])
        XCTAssertEqual(try UploadCommand("cp {file} {folder}/sent/").arguments(file: "/rec/a.mkv", host: "h"), ["cp", "/rec/a.mkv", "/rec/sent/"])
        // Filled once: braces a value holds stay as they are.
        XCTAssertEqual(try UploadCommand("up {file} {host}/{name}").arguments(file: "/rec/{host}.mkv", host: "h"), ["up", "/rec/{host}.mkv", "h/{host}.mkv"])
    }

    func testMistakesAreOneLineEach() {
        func refusal(_ text: String) -> String? {
            do { _ = try UploadCommand(text); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(refusal("  "), "the upload command is empty")
        XCTAssertEqual(refusal("rclone copyto {file} store:{room}/{name}"), "the upload command has {room}: its placeholders are {file}, {name}, {folder}, {host}")
        XCTAssertEqual(refusal("rclone copyto talk.mkv store:bucket"), "the upload command names no file: put {file} where the file goes")
        XCTAssertEqual(refusal("rclone copyto {file} 'store:bucket"), "the upload command has a ' that is not closed")
    }

    func testSecretsInTheCommandAreHiddenWhereverItIsShown() throws {
        let command = try UploadCommand("aws s3 cp {file} s3://b/{name} --secret-access-key=TOPSECRET --token tok123 --endpoint-url https://u:pw9@minio.local")
        XCTAssertEqual(Set(command.secrets), ["TOPSECRET", "tok123", "pw9"])
        let onTheFly = try UploadCommand("rclone copyto {file} :s3,provider=AWS,access_key_id=AKIA1,secret_access_key=S3CRET:bucket/{name}")
        XCTAssertEqual(Set(onTheFly.secrets), ["AKIA1", "S3CRET"])
        XCTAssertEqual(command.hiding("auth failed for tok123 at https://u:pw9@minio.local"), "auth failed for **** at https://u:****@minio.local")
    }

    func testTheJournalKeepsWhatIsPendingAcrossARestartAndForgetsWhatWasSent() throws {
        let folder = try Paths.scratch("upload-journal")
        let journal = UploadJournal(folder: folder)
        journal.add("\(folder)/a.mkv")
        journal.add("\(folder)/b.mkv")
        journal.add("\(folder)/c.mkv")
        journal.finish("\(folder)/b.mkv")
        // A crash in the middle of a line.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"done":"\#(folder)/a."#.utf8))
        try handle.close()
        let again = UploadJournal(folder: folder)
        XCTAssertEqual(again.pending(), ["\(folder)/a.mkv", "\(folder)/c.mkv"])
        XCTAssertEqual(try String(contentsOfFile: again.path, encoding: .utf8).split(separator: "\n").count, 2, "written anew with what is pending")
        again.finish("\(folder)/a.mkv")
        again.finish("\(folder)/c.mkv")
        XCTAssertEqual(UploadJournal(folder: folder).pending(), [])
    }

    func testTheStatusSaysWhatIsPendingFailingAndDone() {
        XCTAssertEqual(UploadStatus(pending: 2, failing: 1, done: 5).text, "uploads 2 pending (1 failing), 5 done")
        XCTAssertEqual(UploadStatus(pending: 0, failing: 0, done: 3).text, "uploads 0 pending, 3 done")
        XCTAssertEqual(SessionEvent.upload(UploadReport(file: "/r/a.mkv", kind: .failed(attempt: 2, reason: "exit 1", retryIn: .seconds(4)))).jsonLine,
                       #"{"attempt":2,"event":"upload","file":"/r/a.mkv","reason":"exit 1","retry-in":4,"what":"failed"}"#)
    }
}
